import { smtpConfigured } from '#config/mail'
import { defineJob } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'
import { emailDelivery } from '#notifications/services/email_delivery'

/**
 * Sends one outbox message. A process without SMTP settings leaves it queued for one that has
 * them (the message is already in the outbox; nothing is lost).
 */
export const deliverEmailJob = defineJob<{ messageId: number }>({
  name: 'notifications.deliver-email',
  queue: 'email',
  dedupeKey: ({ messageId }) => `email:${messageId}`,
  async handle({ messageId }) {
    if (!smtpConfigured) return null
    return emailDelivery.deliverById(messageId)
  },
})

/** Dispatches every queued message that is due (lost jobs, retries after a failed send). */
export const sweepOutboxJob = defineJob({
  name: 'notifications.sweep-outbox',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    if (!smtpConfigured) return { dispatched: 0 }
    const due = await emailDelivery.dueIds()
    for (const messageId of due) {
      await jobs.dispatch(deliverEmailJob, { messageId })
    }
    return { dispatched: due.length }
  },
})
