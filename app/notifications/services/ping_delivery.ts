import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import pingsConfig from '#config/pings'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { pings as pingMetric } from '#core/services/metrics'
import { clock } from '#core/services/clock'
import { AppError } from '#core/exceptions/app_error'
import type { PingMessage } from '#notifications/services/notification_service'
import { pingChannels } from '#notifications/services/ping_channels'
import { sendDiscord, sendWebPush, type SendOutcome } from '#notifications/services/ping_transports'

/** A claim older than this belongs to a worker that died mid-send: tried again. */
const STALE_CLAIM_MINUTES = 5

export type PingReport = { sent: number; gone: number; failed: number; retrying: number }

const emptyReport = (): PingReport => ({ sent: 0, gone: 0, failed: 0, retrying: 0 })

/**
 * Delivers the pings of outbox messages (web push to each of the customer's browsers, and their
 * Discord webhook), once per message and channel: each send is claimed by a row in
 * `ping_deliveries` (unique per message and channel) before it is made. A subscription the push
 * service says is gone (404, 410) is removed; a busy service (429, 5xx) is tried again with
 * back-off. When every channel has its answer, the message's ping is done.
 */
export class PingDelivery {
  /** Messages whose pings are due (the outbox sweep dispatches them). */
  async dueIds(limit = 200): Promise<number[]> {
    const rows = await db
      .from('email_messages')
      .where('ping_status', 'due')
      .where('ping_due_at', '<=', sqlTime())
      .orderBy('id', 'asc')
      .limit(limit)
      .select('id')
    return rows.map((row: { id: number }) => Number(row.id))
  }

  /** Every ping due now (tests, the CLI). */
  async deliverDue() {
    const total = emptyReport()
    for (const id of await this.dueIds()) {
      const report = await this.deliver(id)
      for (const key of Object.keys(total) as (keyof PingReport)[]) total[key] += report[key]
    }
    return total
  }

  async deliver(messageId: number): Promise<PingReport> {
    const report = emptyReport()
    const row = await db
      .from('email_messages')
      .where('id', messageId)
      .where('ping_status', 'due')
      .select('id', 'user_id', 'ping_payload', 'created_at')
      .first()
    if (!row || !row.user_id || !row.ping_payload) return report
    const created = toDate(row.created_at)
    if (clock.nowMs() - created.getTime() > pingsConfig.maxAgeHours * 3600_000) {
      await this.finish(messageId, null)
      return report
    }
    const message = JSON.parse(row.ping_payload) as PingMessage
    const targets = await pingChannels.targetsOf(Number(row.user_id))
    for (const subscription of targets.push) {
      const target = `push:${subscription.id}`
      if (!(await this.claim(messageId, target))) continue
      const outcome = await sendWebPush(subscription, message)
      await this.record(messageId, target, outcome, report, 'push')
      if (outcome.result === 'gone') await pingChannels.removeSubscription(subscription.id)
      if (outcome.result === 'sent') await pingChannels.noteSent(subscription.id)
    }
    if (targets.discord && (await this.claim(messageId, 'discord'))) {
      const outcome = await sendDiscord(targets.discord, message)
      await this.record(messageId, 'discord', outcome, report, 'discord')
      if (outcome.result === 'gone') await pingChannels.removeDiscord(Number(row.user_id))
    }
    const waiting = await db
      .from('ping_deliveries')
      .where('email_message_id', messageId)
      .whereIn('status', ['retry', 'sending'])
      .min('next_attempt_at as next')
      .count('* as total')
      .first()
    const open = Number(waiting?.total ?? 0) > 0
    // A channel still waits: due again at its retry (or when a dead worker's claim goes stale).
    const next = open
      ? (waiting?.next ?? sqlTime(DateTime.now().plus({ minutes: STALE_CLAIM_MINUTES })))
      : null
    await this.finish(messageId, next)
    return report
  }

  /** The ping of a message is done, or due again when its first retry is. */
  private async finish(messageId: number, nextAttemptAt: unknown) {
    await db
      .from('email_messages')
      .where('id', messageId)
      .update(
        nextAttemptAt
          ? { ping_due_at: nextAttemptAt instanceof Date ? sqlTime(nextAttemptAt) : nextAttemptAt }
          : { ping_status: 'done', ping_due_at: null }
      )
  }

  /** Takes the send of a message to a channel: new, due for a retry, or left by a dead worker. */
  private async claim(messageId: number, target: string): Promise<boolean> {
    try {
      await db.table('ping_deliveries').insert({
        email_message_id: messageId,
        target,
        status: 'sending',
        attempts: 1,
        created_at: sqlTime(),
        updated_at: sqlTime(),
      })
      return true
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    const now = DateTime.now()
    const changed = await db
      .from('ping_deliveries')
      .where('email_message_id', messageId)
      .where('target', target)
      .where('attempts', '<', pingsConfig.maxAttempts)
      .where((query) =>
        query
          .where((due) => due.where('status', 'retry').where('next_attempt_at', '<=', sqlTime(now)))
          .orWhere((stale) =>
            stale
              .where('status', 'sending')
              .where('updated_at', '<', sqlTime(now.minus({ minutes: STALE_CLAIM_MINUTES })))
          )
      )
      .update({
        status: 'sending',
        attempts: db.knexRawQuery('attempts + 1'),
        updated_at: sqlTime(now),
      })
    return affectedRows(changed) === 1
  }

  private async record(
    messageId: number,
    target: string,
    outcome: SendOutcome,
    report: PingReport,
    channel: 'push' | 'discord'
  ) {
    const current = await db
      .from('ping_deliveries')
      .where('email_message_id', messageId)
      .where('target', target)
      .select('attempts')
      .first()
    const attempts = Number(current?.attempts ?? 1)
    let status: string = outcome.result
    if (outcome.result === 'retry' && attempts >= pingsConfig.maxAttempts) status = 'failed'
    const detail = 'detail' in outcome ? outcome.detail.slice(0, 255) : null
    await db
      .from('ping_deliveries')
      .where('email_message_id', messageId)
      .where('target', target)
      .update({
        status,
        last_error: detail,
        sent_at: status === 'sent' ? sqlTime() : null,
        next_attempt_at:
          status === 'retry'
            ? sqlTime(DateTime.now().plus({ seconds: 30 * 2 ** (attempts - 1) }))
            : null,
        updated_at: sqlTime(),
      })
    pingMetric.inc({ channel, result: status === 'retry' ? 'retry' : status })
    if (status === 'sent') report.sent++
    else if (status === 'gone') report.gone++
    else if (status === 'retry') report.retrying++
    else report.failed++
    if (status !== 'sent' && status !== 'gone') {
      logger.warn({ message: messageId, target, status, detail }, 'ping not delivered')
    }
  }

  /**
   * A test ping to every channel of a customer (the orders page's "Send a test"), sent now and
   * not recorded: it is about nothing that happened to an order. A subscription whose keys do not
   * work is removed, as a gone one is; when it reached nowhere because of that, a 422 says so.
   */
  async test(userId: number) {
    const message: PingMessage = {
      title: 'Dropslot notifications are on',
      body: 'This is how your release-day results will reach you.',
      url: '/user/orders',
      tag: 'dropslot-test',
    }
    const targets = await pingChannels.targetsOf(userId)
    const report = { push: emptyReport(), discord: emptyReport() }
    let invalid = 0
    for (const subscription of targets.push) {
      const outcome = await sendWebPush(subscription, message)
      if (outcome.result === 'gone') await pingChannels.removeSubscription(subscription.id)
      if (outcome.result === 'gone' && outcome.invalid) invalid++
      count(report.push, outcome)
    }
    if (targets.discord) {
      const outcome = await sendDiscord(targets.discord, message)
      if (outcome.result === 'gone') await pingChannels.removeDiscord(userId)
      count(report.discord, outcome)
    }
    if (invalid > 0 && report.push.sent + report.discord.sent === 0) {
      throw AppError.unprocessable(
        'The notifications of a browser of yours were set up with keys that do not work, so they are now off. Turn them on again in that browser.',
        {},
        'push_subscription_invalid'
      )
    }
    return report
  }
}

function count(report: PingReport, outcome: SendOutcome) {
  if (outcome.result === 'sent') report.sent++
  else if (outcome.result === 'gone') report.gone++
  else if (outcome.result === 'retry') report.retrying++
  else report.failed++
}

function toDate(value: unknown) {
  return value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)
}

export const pingDelivery = new PingDelivery()
