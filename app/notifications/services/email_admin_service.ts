import EmailMessage from '#notifications/models/email_message'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

/** An outbox message as other modules read it: its columns. */
export type EmailMessageRecord = Readonly<ModelAttributes<EmailMessage>>
import { AppError } from '#core/exceptions/app_error'
import { MAILBOX_URL, mailDestination } from '#config/mail'

/** Templates whose body carries a secret link that even an admin should not be able to use. */
const SECRET_LINK_TEMPLATES = new Set(['password_reset'])

function hideSecretLinks(body: string | null): string | null {
  if (body === null) return null
  return body.replace(/([?&](?:token|hash)=)[^\s"'&<]+/gi, '$1[hidden]')
}

/** The admin's view of an e-mail in the outbox. Bodies only on `detail`. */
export function presentEmail(
  email: EmailMessageRecord,
  links: { orderId?: string | null; customerId?: string | null } = {},
  detail = false
) {
  const secret = SECRET_LINK_TEMPLATES.has(email.template)
  return {
    id: email.id,
    toAddress: email.toAddress,
    template: email.template,
    subject: email.subject,
    status: email.status,
    attempts: email.attempts,
    lastError: email.lastError,
    sentAt: email.sentAt?.toISO() ?? null,
    keptAt: email.keptAt?.toISO() ?? null,
    createdAt: email.createdAt.toISO(),
    orderId: links.orderId ?? null,
    customerId: links.customerId ?? null,
    ...(detail
      ? {
          textBody: secret ? hideSecretLinks(email.textBody) : email.textBody,
          htmlBody: secret ? hideSecretLinks(email.htmlBody) : email.htmlBody,
        }
      : {}),
  }
}

/**
 * The e-mail log (outbox) for the admin console. Read-only: sending and resending belong to
 * the notification service and the release-day flows.
 */
export class EmailAdminService {
  query() {
    return EmailMessage.query()
  }

  async find(id: number) {
    const email = Number.isSafeInteger(id) && id > 0 ? await EmailMessage.find(id) : null
    if (!email) throw AppError.notFound('E-mail not found.', 'email_not_found')
    return email
  }

  /**
   * Where e-mail goes from this install, for the console's dashboard: over SMTP, or, without
   * SMTP outside production, into the console's mailbox, which the notice names.
   */
  outgoing() {
    const destination = mailDestination()
    return {
      destination,
      notice:
        destination === 'mailbox'
          ? "SMTP not configured: e-mails go to the console's mailbox"
          : null,
      mailboxUrl: MAILBOX_URL,
    }
  }

  async forOrder(orderId: number) {
    return EmailMessage.query()
      .where('order_id', orderId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
  }
}

export const emailAdmin = new EmailAdminService()
