import type { RenderedEmail } from '#notifications/templates'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { type DriverSession, withDriverSession } from '#core/services/driver_session'
import { jobs } from '#core/jobs/jobs'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { pingChannels } from '#notifications/services/ping_channels'

/**
 * A message's ping (web push, the customer's Discord webhook): a title and a line, and where the
 * storefront opens when it is tapped. Sent once per outbox row, besides the e-mail.
 */
export type PingMessage = {
  title: string
  body: string
  /** A path of the storefront, e.g. /user/orders. */
  url: string
  /** Same tag, same notification: a newer ping about an order replaces the older one. */
  tag: string
}

export type OutgoingEmail = {
  to: string
  template: string
  message: RenderedEmail
  userId?: number | null
  orderId?: number | null
  /** Same key, same message: a retried caller never sends it twice. */
  dedupeKey?: string | null
  /**
   * Also pinged to the customer's browsers and Discord, under the same dedupe key (only for a
   * customer's automatic messages: `userId` and `dedupeKey` set).
   */
  ping?: PingMessage | null
}

const RECORD_EMAIL = `INSERT INTO email_messages (to_address, template, subject, text_body,
  html_body, user_id, order_id, dedupe_key, status, attempts, ping_status, ping_payload,
  ping_due_at, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`

/**
 * Every e-mail goes through here and is recorded in the outbox (email_messages) before any
 * transport sees it, so admins can read what was sent and failed sends can be retried. Every
 * message is queued whatever the writer's settings: the process that runs the delivery
 * (EmailDelivery) sends it over its SMTP, so a message written by the CLI without SMTP is not
 * stranded; a delivering process without SMTP (outside production) keeps it in the console's
 * mailbox instead.
 */
export class NotificationService {
  /**
   * Records the message (one INSERT on the driver, not a model: the checkout sends one per
   * order) and dispatches its delivery. `session`: the caller's own driver session, to record it
   * on the same connection; the caller's transaction is not committed yet, so the caller calls
   * `deliverSoon` after its commit. Null when the dedupe key was used already.
   */
  async send(email: OutgoingEmail, session?: DriverSession): Promise<{ id: number } | null> {
    const now = sqlTime()
    // Pinged only when the customer has a channel: most have none, and their outcome e-mails
    // then cost no job and no delivery round.
    const ping =
      email.ping && email.userId && email.dedupeKey && (await pingChannels.hasAny(email.userId))
        ? email.ping
        : null
    const record = (on: DriverSession) =>
      on.run(RECORD_EMAIL, [
        email.to,
        email.template,
        email.message.subject,
        email.message.text,
        email.message.html,
        email.userId ?? null,
        email.orderId ?? null,
        email.dedupeKey ?? null,
        'queued',
        ping ? 'due' : null,
        ping ? JSON.stringify(ping) : null,
        ping ? now : null,
        now,
        now,
      ])
    try {
      const { insertId } = await (session ? record(session) : withDriverSession(record))
      if (!session) {
        await this.deliverSoon(insertId)
        if (ping) await this.pingSoon(insertId)
      }
      return { id: insertId }
    } catch (error) {
      if (email.dedupeKey && isUniqueViolation(error)) return null
      throw error
    }
  }

  /**
   * Drops a customer's messages not sent yet and the channels of their pings (their account is
   * going), within `trx`.
   */
  async dropQueuedFor(userId: number, trx: TransactionClientContract) {
    await trx.from('email_messages').where('user_id', userId).where('status', 'queued').delete()
    await trx
      .from('email_messages')
      .where('user_id', userId)
      .where('ping_status', 'due')
      .update({ ping_status: 'done' })
    await trx.from('push_subscriptions').where('user_id', userId).delete()
    await trx.from('ping_settings').where('user_id', userId).delete()
  }

  /** Rings the pings of a recorded message (the outbox sweep finds them if this is lost). */
  pingSoon(messageId: number) {
    return jobs.dispatch('notifications.deliver-pings', { messageId })
  }

  /** Rings the delivery of a recorded message (the outbox sweep finds it if this is lost). */
  deliverSoon(messageId: number) {
    return jobs.dispatch('notifications.deliver-email', { messageId })
  }
}

export const notifications = new NotificationService()
