import { DateTime } from 'luxon'
import { secondsSince, sqlTime } from '#core/helpers/sql_time'
import mail from '@adonisjs/mail/services/main'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import EmailMessage from '#notifications/models/email_message'
import { affectedRows } from '#core/helpers/db_errors'
import { opsLog } from '#core/services/ops_log'
import { mailDestination, type MailDestination } from '#config/mail'

/** The part of an @adonisjs/mail mailer that delivery needs. */
export type EmailSender = {
  send(callback: (message: any) => void): Promise<unknown>
}

/** A claim older than this belongs to a worker that died mid-send: the message is queued again. */
const STALE_CLAIM_MINUTES = 5

type Delivered = 'sent' | 'kept' | 'failed' | 'retrying'

/**
 * Delivers queued outbox messages. Each message is claimed with a conditional update, so two
 * workers never send the same one; a failed send is retried with growing delays until
 * EMAIL_MAX_ATTEMPTS, then marked failed with its last error for an admin to see. Without SMTP
 * (outside production only, `mailDestination`) a message is kept for the console's mailbox.
 */
export class EmailDelivery {
  constructor(
    private sender: () => EmailSender = () => mail.use('smtp'),
    private maxAttempts = env.get('EMAIL_MAX_ATTEMPTS', 5),
    private destination: () => MailDestination | null = mailDestination
  ) {}

  async deliverDue(limit = 50): Promise<Record<Delivered, number>> {
    const outcome = { sent: 0, kept: 0, failed: 0, retrying: 0 }
    if (!this.destination()) return outcome
    await this.requeueStaleClaims()
    const now = DateTime.utc()
    const due = await EmailMessage.query()
      .where('status', 'queued')
      .where((query) => {
        query.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', sqlTime(now))
      })
      .orderBy('id', 'asc')
      .limit(limit)

    for (const message of due) {
      const result = await this.deliver(message)
      if (result) outcome[result] += 1
    }
    return outcome
  }

  /** Ids of queued messages that are due, oldest first (stale claims are queued again first). */
  async dueIds(limit = 500): Promise<number[]> {
    await this.requeueStaleClaims()
    const rows = await db
      .from('email_messages')
      .select('id')
      .where('status', 'queued')
      .where((query) => {
        query.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', sqlTime())
      })
      .orderBy('id', 'asc')
      .limit(limit)
    return rows.map((row: { id: number }) => row.id)
  }

  /** Messages waiting to be sent: how many, and the age in seconds of the oldest. */
  async backlog() {
    const row = await db
      .from('email_messages')
      .whereIn('status', ['queued', 'sending'])
      .count('* as due')
      .min('created_at as oldest')
      .first()
    return { due: Number(row?.due ?? 0), oldestSeconds: secondsSince(row?.oldest) }
  }

  /**
   * Delivers one message when it is queued and due: the unit of the `notifications.deliver-email`
   * job. The claim inside `deliver` makes a job delivered twice send once.
   */
  async deliverById(id: number) {
    const message = await EmailMessage.query()
      .where('id', id)
      .where('status', 'queued')
      .where((query) => {
        query.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', sqlTime())
      })
      .first()
    return message ? this.deliver(message) : null
  }

  async deliver(message: EmailMessage): Promise<Delivered | null> {
    const destination = this.destination()
    if (!destination) return null
    const claimed = await db
      .from('email_messages')
      .where('id', message.id)
      .where('status', 'queued')
      .update({ status: 'sending', updated_at: sqlTime(DateTime.utc()) })
    if (affectedRows(claimed) !== 1) return null
    if (destination === 'mailbox') return this.keep(message)

    const attempts = message.attempts + 1
    try {
      await this.sender().send((outgoing) => {
        outgoing.to(message.toAddress).subject(message.subject).text(message.textBody)
        if (message.htmlBody) outgoing.html(message.htmlBody)
      })
      await EmailMessage.query()
        .where('id', message.id)
        .update({
          status: 'sent',
          attempts,
          sent_at: sqlTime(DateTime.utc()),
          last_error: null,
          next_attempt_at: null,
        })
      opsLog('email.sent', await this.opsFields(message, attempts))
      return 'sent'
    } catch (error) {
      const giveUp = attempts >= this.maxAttempts
      const delaySeconds = 30 * 2 ** (attempts - 1)
      await EmailMessage.query()
        .where('id', message.id)
        .update({
          status: giveUp ? 'failed' : 'queued',
          attempts,
          last_error: describe(error),
          next_attempt_at: giveUp ? null : sqlTime(DateTime.utc().plus({ seconds: delaySeconds })),
        })
      opsLog('email.failed', {
        ...(await this.opsFields(message, attempts)),
        final: giveUp,
        error: describe(error),
      })
      return giveUp ? 'failed' : 'retrying'
    }
  }

  /** Kept for the console's mailbox instead of sent: it no longer waits to be delivered. */
  private async keep(message: EmailMessage): Promise<'kept'> {
    await EmailMessage.query()
      .where('id', message.id)
      .update({
        status: 'kept',
        kept_at: sqlTime(DateTime.utc()),
        last_error: null,
        next_attempt_at: null,
      })
    return 'kept'
  }

  /** What the operations log says of a message: never its address or its body. */
  private async opsFields(message: EmailMessage, attempts: number) {
    const order = message.orderId
      ? await db.from('orders').where('id', message.orderId).select('public_id').first()
      : null
    return { email: message.id, template: message.template, order: order?.public_id, attempts }
  }

  private async requeueStaleClaims() {
    await db
      .from('email_messages')
      .where('status', 'sending')
      .where('updated_at', '<', sqlTime(DateTime.utc().minus({ minutes: STALE_CLAIM_MINUTES })))
      .update({ status: 'queued' })
  }
}

/** A short, single-line reason for admins; never the message body. */
function describe(error: unknown): string {
  const candidate = error as { code?: string; message?: string; responseCode?: number }
  const parts = [candidate.code, candidate.responseCode, candidate.message].filter(Boolean)
  return parts.join(' ').replace(/\s+/g, ' ').slice(0, 500) || 'unknown error'
}

export const emailDelivery = new EmailDelivery()
