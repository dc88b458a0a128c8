import { mailDestination } from '#config/mail'
import { defineJob, type JobPayloads } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'

declare module '#core/jobs/job' {
  interface JobPayloads {
    'notifications.deliver-email': { messageId: number }
    'notifications.deliver-pings': { messageId: number }
  }
}

/**
 * Delivers one outbox message: over SMTP, or, in a process without SMTP outside production, into
 * the console's mailbox (`EmailDelivery` decides; production does not start without SMTP).
 */
export const deliverEmailJob = defineJob<JobPayloads['notifications.deliver-email']>({
  name: 'notifications.deliver-email',
  queue: 'email',
  dedupeKey: ({ messageId }) => `email:${messageId}`,
  async handle({ messageId }) {
    const { emailDelivery } = await import('#notifications/services/email_delivery')
    return emailDelivery.deliverById(messageId)
  },
})

/** Sends one outbox message's pings (web push, Discord): once per channel. */
export const deliverPingsJob = defineJob<JobPayloads['notifications.deliver-pings']>({
  name: 'notifications.deliver-pings',
  queue: 'email',
  dedupeKey: ({ messageId }) => `pings:${messageId}`,
  async handle({ messageId }) {
    const { pingDelivery } = await import('#notifications/services/ping_delivery')
    return pingDelivery.deliver(messageId)
  },
})

/**
 * Dispatches every queued message that is due (lost jobs, retries after a failed send), and the
 * pings still due (they need no SMTP).
 */
export const sweepOutboxJob = defineJob({
  name: 'notifications.sweep-outbox',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { pingDelivery } = await import('#notifications/services/ping_delivery')
    const { emailDelivery } = await import('#notifications/services/email_delivery')
    const pings = await pingDelivery.dueIds()
    for (const messageId of pings) {
      await jobs.dispatch(deliverPingsJob, { messageId })
    }
    if (!mailDestination()) return { dispatched: 0, pings: pings.length }
    const due = await emailDelivery.dueIds()
    for (const messageId of due) {
      await jobs.dispatch(deliverEmailJob, { messageId })
    }
    return { dispatched: due.length, pings: pings.length }
  },
})
