import { defineJob, type JobPayloads } from '#core/jobs/job'
import type { Completion } from '#release/services/order_outcome'

declare module '#core/jobs/job' {
  interface JobPayloads {
    'release.complete-result': Completion
    'release.retry-fee': { orderId: number }
  }
}

/*
| With workers, the money of release day moves on the gateway queue, within the gateway's rate
| however many results arrive at once. Every step is idempotent and ledger-backed, so a job run
| twice moves nothing twice; the results sweep re-finds a result whose job was lost.
*/

/** Applies a recorded result: the order's status, fee or hold release, e-mail, timeline, audit. */
export const completeResultJob = defineJob<JobPayloads['release.complete-result']>({
  name: 'release.complete-result',
  queue: 'gateway',
  dedupeKey: ({ orderId }) => `result:${orderId}`,
  async handle(completion) {
    const { orderOutcome } = await import('#release/services/order_outcome')
    const report = await orderOutcome.complete(completion)
    return {
      order: report.order.publicId,
      status: report.order.status,
      fee: report.order.feeStatus,
    }
  },
})

/** Tries a success's due fee again (a decline or an outage left it unpaid). */
export const retryFeeJob = defineJob<JobPayloads['release.retry-fee']>({
  name: 'release.retry-fee',
  queue: 'gateway',
  dedupeKey: ({ orderId }) => `fee:${orderId}`,
  async handle({ orderId }) {
    const { releaseRunner } = await import('#release/services/release_runner')
    return { fee: await releaseRunner.retryFee(orderId) }
  },
})

/** Results recorded but not applied for a while (their job was lost): handed to the queue again. */
export const sweepResultsJob = defineJob({
  name: 'release.sweep-results',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { releaseResults } = await import('#release/services/release_results')
    const { orderOutcome } = await import('#release/services/order_outcome')
    const stale = await releaseResults.unfinished(null, { resultBeforeSeconds: 30 })
    for (const task of stale) await orderOutcome.resume(task.order_id)
    return { dispatched: stale.length }
  },
})
