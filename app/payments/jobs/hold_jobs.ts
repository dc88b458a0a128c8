import { defineJob, type JobPayloads } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'

declare module '#core/jobs/job' {
  interface JobPayloads {
    'payments.place-hold': { orderId: number }
  }
}

/** Places one order's $1.00 card check; on the gateway queue, so within its rate. */
export const placeHoldJob = defineJob<JobPayloads['payments.place-hold']>({
  name: 'payments.place-hold',
  queue: 'gateway',
  dedupeKey: ({ orderId }) => `hold:${orderId}`,
  async handle({ orderId }) {
    const { holdWorker } = await import('#payments/services/hold_worker')
    return holdWorker.placeOne(orderId)
  },
})

/**
 * Renews one waiting order's hold before it lapses (a new round placed, the old one released);
 * on the gateway queue, so within its rate.
 */
export const renewHoldJob = defineJob<{ orderId: number }>({
  name: 'payments.renew-hold',
  queue: 'gateway',
  dedupeKey: ({ orderId }) => `hold-renew:${orderId}`,
  async handle({ orderId }) {
    const { holdWorker } = await import('#payments/services/hold_worker')
    return holdWorker.renewOne(orderId)
  },
})

/**
 * Dispatches the hold of every order that is due: new ones whose job was lost, retries whose
 * back-off has passed, claims left by a worker that died; and gives up holds that waited for
 * the customer's authentication past their deadline; and renews the holds of waiting orders
 * before they lapse.
 */
export const sweepHoldsJob = defineJob({
  name: 'payments.sweep-holds',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { holdWorker } = await import('#payments/services/hold_worker')
    const due = await holdWorker.dueOrderIds()
    for (const orderId of due) {
      await jobs.dispatch(placeHoldJob, { orderId })
    }
    // Holds that waited for the customer's authentication past their deadline.
    const { expired } = await holdWorker.expireWaiting()
    // Waiting orders whose hold lapses soon (or did): renewed, each by its own job.
    const renewals = await holdWorker.dueRenewalIds()
    for (const orderId of renewals) {
      await jobs.dispatch(renewHoldJob, { orderId })
    }
    return { dispatched: due.length, expired, renewals: renewals.length }
  },
})
