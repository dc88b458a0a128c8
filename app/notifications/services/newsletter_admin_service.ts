import { stringify } from 'csv-stringify/sync'
import NewsletterSubscriber from '#notifications/models/newsletter_subscriber'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

/** A newsletter subscriber as other modules read it: its columns. */
export type NewsletterSubscriberRecord = Readonly<ModelAttributes<NewsletterSubscriber>>
import { AppError } from '#core/exceptions/app_error'

/** The admin's view of one newsletter subscriber. */
export function presentSubscriber(subscriber: NewsletterSubscriberRecord) {
  return {
    id: subscriber.id,
    email: subscriber.email,
    source: subscriber.source,
    subscribed: subscriber.unsubscribedAt === null,
    unsubscribedAt: subscriber.unsubscribedAt?.toISO() ?? null,
    createdAt: subscriber.createdAt.toISO(),
  }
}

/** A spreadsheet must never run a cell as a formula (`=HYPERLINK(...)@x.test` is a valid e-mail). */
function safeCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value)
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

/**
 * Newsletter subscribers for the admin console: listing, removal and the CSV export.
 */
export class NewsletterAdminService {
  query() {
    return NewsletterSubscriber.query()
  }

  async find(id: number) {
    const subscriber =
      Number.isSafeInteger(id) && id > 0 ? await NewsletterSubscriber.find(id) : null
    if (!subscriber) throw AppError.notFound('Subscriber not found.', 'subscriber_not_found')
    return subscriber
  }

  /** Removes the address entirely (a GDPR erasure request); returns what was removed. */
  async delete(id: number) {
    const subscriber = await this.find(id)
    await subscriber.delete()
    return subscriber
  }

  toCsv(subscribers: readonly NewsletterSubscriberRecord[]): string {
    const rows = subscribers.map((subscriber) => {
      const row = presentSubscriber(subscriber)
      return [
        row.email,
        row.source,
        row.subscribed ? 'yes' : 'no',
        row.createdAt,
        row.unsubscribedAt,
      ]
    })
    return stringify(
      [['email', 'source', 'subscribed', 'subscribed_at', 'unsubscribed_at'], ...rows],
      {
        cast: { string: safeCell },
      }
    )
  }
}

export const newsletterAdmin = new NewsletterAdminService()
