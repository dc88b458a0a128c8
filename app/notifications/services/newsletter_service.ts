import NewsletterSubscriber from '#notifications/models/newsletter_subscriber'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { notifications } from '#notifications/services/notification_service'
import { emailKeys } from '#notifications/services/email_keys'
import { templates } from '#notifications/templates'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

export class NewsletterService {
  /** Idempotent: subscribing twice (even at once) keeps one row and sends one confirmation. */
  async subscribe(email: string, source = 'home'): Promise<{ alreadySubscribed: boolean }> {
    try {
      await NewsletterSubscriber.create({ email, source, unsubscribedAt: null })
    } catch (error) {
      if (isUniqueViolation(error)) return { alreadySubscribed: true }
      throw error
    }
    await notifications.send({
      to: email,
      template: 'newsletter_confirmation',
      message: templates.newsletterConfirmation(),
      dedupeKey: emailKeys.newsletter(email),
    })
    return { alreadySubscribed: false }
  }

  /** Forgets an address (its account was deleted), within the caller's `trx`. */
  async forget(email: string, trx: TransactionClientContract) {
    await trx.from('newsletter_subscribers').where('email', email).delete()
  }
}

export const newsletterService = new NewsletterService()
