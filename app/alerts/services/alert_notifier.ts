import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import alertsConfig from '#config/alerts'
import dropslotConfig from '#config/dropslot'
import type Incident from '#alerts/models/incident'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { notifications } from '#notifications/services/notification_service'
import { templates } from '#notifications/templates'
import { emailKeys } from '#notifications/services/email_keys'

export type NoticeEvent = 'opened' | 'resolved'

/** A claim older than this belongs to a check that died mid-send: the notice is tried again. */
const STALE_CLAIM_MINUTES = 5

const consoleUrl = (incident: Pick<Incident, 'id'>) =>
  `${dropslotConfig.appUrl}/admin/incidents/${incident.id}/show`

const when = (value: DateTime | null) =>
  value ? value.toUTC().toFormat("yyyy-MM-dd HH:mm:ss 'UTC'") : ''

type NoticeIncident = Pick<
  Incident,
  'id' | 'rule' | 'subject' | 'title' | 'detail' | 'openedAt' | 'resolvedAt'
>

/** The words of a webhook message: one opening line, the detail, the link. */
export function noticeText(incident: NoticeIncident, event: NoticeEvent) {
  const head =
    event === 'opened'
      ? `[ALERT] ${incident.title}`
      : `[RESOLVED] ${incident.title} (open since ${when(incident.openedAt)})`
  const lines = [head]
  if (event === 'opened' && incident.detail) lines.push(incident.detail)
  lines.push(
    `Rule ${incident.rule}${incident.subject ? ` (${incident.subject})` : ''} · incident #${incident.id} · ${consoleUrl(incident)}`
  )
  return lines.join('\n')
}

/**
 * The JSON an incoming webhook takes: Slack's `{text}` (Mattermost, Rocket.Chat and most chat
 * tools take it too) or Discord's `{content}` (at most 2,000 characters).
 */
export function noticeBody(
  incident: NoticeIncident,
  event: NoticeEvent,
  format: 'slack' | 'discord'
): Record<string, unknown> {
  const text = noticeText(incident, event)
  return format === 'discord'
    ? { content: text.slice(0, 2000), username: 'Dropslot alerts', allowed_mentions: { parse: [] } }
    : { text }
}

/**
 * Tells the operator about an incident, once when it opens and once when it resolves: a notice
 * row per webhook message (sent by `deliverDue`, claimed by a conditional update, retried with
 * back-off), and an e-mail through the outbox under a dedupe key per incident and event.
 */
export class AlertNotifier {
  async announce(incident: Incident, event: NoticeEvent) {
    if (alertsConfig.webhookUrl) {
      try {
        await db.table('incident_notices').insert({
          incident_id: incident.id,
          event,
          channel: 'webhook',
          status: 'queued',
          attempts: 0,
          created_at: sqlTime(),
          updated_at: sqlTime(),
        })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
    }
    if (alertsConfig.email) {
      const message =
        event === 'opened'
          ? templates.incidentOpened({
              title: incident.title,
              detail: incident.detail,
              rule: incident.rule,
              openedAt: when(incident.openedAt),
              consoleUrl: consoleUrl(incident),
            })
          : templates.incidentResolved({
              title: incident.title,
              rule: incident.rule,
              openedAt: when(incident.openedAt),
              resolvedAt: when(incident.resolvedAt),
              consoleUrl: consoleUrl(incident),
            })
      await notifications.send({
        to: alertsConfig.email,
        template: `incident_${event}`,
        message,
        dedupeKey: emailKeys.incident(incident, event),
      })
    }
  }

  /** Sends the webhook notices that are due, oldest first; returns how many went out. */
  async deliverDue(): Promise<{ sent: number; failed: number }> {
    const outcome = { sent: 0, failed: 0 }
    const url = alertsConfig.webhookUrl
    if (!url) return outcome
    const now = DateTime.now()
    await db
      .from('incident_notices')
      .where('status', 'sending')
      .where('updated_at', '<', sqlTime(now.minus({ minutes: STALE_CLAIM_MINUTES })))
      .update({ status: 'queued' })
    const due = await db
      .from('incident_notices')
      .join('incidents', 'incidents.id', 'incident_notices.incident_id')
      .where('incident_notices.status', 'queued')
      .where((query) =>
        query
          .whereNull('incident_notices.next_attempt_at')
          .orWhere('incident_notices.next_attempt_at', '<=', sqlTime(now))
      )
      .orderBy('incident_notices.id', 'asc')
      .limit(50)
      .select(
        'incident_notices.id as notice_id',
        'incident_notices.event',
        'incident_notices.attempts',
        'incidents.id',
        'incidents.rule',
        'incidents.subject',
        'incidents.title',
        'incidents.detail',
        'incidents.opened_at',
        'incidents.resolved_at'
      )
    for (const row of due) {
      const claimed = await db
        .from('incident_notices')
        .where('id', row.notice_id)
        .where('status', 'queued')
        .update({ status: 'sending', attempts: Number(row.attempts) + 1, updated_at: sqlTime() })
      if (affectedRows(claimed) !== 1) continue
      const incident: NoticeIncident = {
        id: Number(row.id),
        rule: row.rule,
        subject: row.subject,
        title: row.title,
        detail: row.detail,
        openedAt: toDateTime(row.opened_at)!,
        resolvedAt: toDateTime(row.resolved_at),
      }
      const attempts = Number(row.attempts) + 1
      try {
        await this.post(url, noticeBody(incident, row.event, alertsConfig.webhookFormat))
        await db
          .from('incident_notices')
          .where('id', row.notice_id)
          .update({ status: 'sent', sent_at: sqlTime(), last_error: null, updated_at: sqlTime() })
        outcome.sent++
      } catch (error) {
        const giveUp = attempts >= alertsConfig.noticeMaxAttempts
        const message = (error as Error).message.slice(0, 500)
        await db
          .from('incident_notices')
          .where('id', row.notice_id)
          .update({
            status: giveUp ? 'failed' : 'queued',
            last_error: message,
            next_attempt_at: giveUp
              ? null
              : sqlTime(DateTime.now().plus({ seconds: 15 * 2 ** (attempts - 1) })),
            updated_at: sqlTime(),
          })
        logger.warn({ incident: incident.id, attempts, error: message }, 'alert webhook not sent')
        outcome.failed++
      }
    }
    return outcome
  }

  private async post(url: string, body: Record<string, unknown>) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(alertsConfig.noticeTimeoutMs),
    })
    // The answer's body is read and dropped (a keep-alive connection is freed).
    await response.arrayBuffer().catch(() => null)
    if (!response.ok) throw new Error(`The webhook answered ${response.status}.`)
  }
}

function toDateTime(value: unknown): DateTime | null {
  if (!value) return null
  if (value instanceof Date) return DateTime.fromJSDate(value, { zone: 'utc' })
  return DateTime.fromSQL(String(value), { zone: 'utc' })
}

export const alertNotifier = new AlertNotifier()
