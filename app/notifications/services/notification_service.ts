import EmailMessage from '#notifications/models/email_message'
import type { RenderedEmail } from '#notifications/templates'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { smtpConfigured } from '#config/mail'

export type OutgoingEmail = {
  to: string
  template: string
  message: RenderedEmail
  userId?: number | null
  orderId?: number | null
  /** Same key, same message: a retried caller never sends it twice. */
  dedupeKey?: string | null
}

/**
 * Every e-mail goes through here and is recorded in the outbox (email_messages) before any
 * transport sees it, so admins can read what was sent and failed sends can be retried. With SMTP
 * configured the message is queued for the delivery worker (EmailDelivery); without it, it is
 * kept as "recorded".
 */
export class NotificationService {
  async send(email: OutgoingEmail): Promise<EmailMessage | null> {
    try {
      return await EmailMessage.create({
        toAddress: email.to,
        template: email.template,
        subject: email.message.subject,
        textBody: email.message.text,
        htmlBody: email.message.html,
        userId: email.userId ?? null,
        orderId: email.orderId ?? null,
        dedupeKey: email.dedupeKey ?? null,
        status: smtpConfigured ? 'queued' : 'recorded',
        attempts: 0,
        nextAttemptAt: null,
      })
    } catch (error) {
      if (email.dedupeKey && isUniqueViolation(error)) return null
      throw error
    }
  }
}

export const notifications = new NotificationService()
