import { defineJob } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'
import { holdWorker } from '#payments/services/hold_worker'

/** Places one order's $1.00 card check; on the gateway queue, so within its rate. */
export const placeHoldJob = defineJob<{ orderId: number }>({
  name: 'payments.place-hold',
  queue: 'gateway',
  dedupeKey: ({ orderId }) => `hold:${orderId}`,
  handle: ({ orderId }) => holdWorker.placeOne(orderId),
})

/**
 * Dispatches the hold of every order that is due: new ones whose job was lost, retries whose
 * back-off has passed, claims left by a worker that died; and gives up holds that waited for
 * the customer's authentication past their deadline.
 */
export const sweepHoldsJob = defineJob({
  name: 'payments.sweep-holds',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const due = await holdWorker.dueOrderIds()
    for (const orderId of due) {
      await jobs.dispatch(placeHoldJob, { orderId })
    }
    // Holds that waited for the customer's authentication past their deadline.
    const { expired } = await holdWorker.expireWaiting()
    return { dispatched: due.length, expired }
  },
})
