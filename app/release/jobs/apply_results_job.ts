import { defineJob, type JobPayloads } from '#core/jobs/job'
import type { CheckoutResult } from '#release/services/release_results'

declare module '#core/jobs/job' {
  interface JobPayloads {
    'release.apply-results': { eventId: string; results: CheckoutResult[] }
  }
}

/**
 * Applies a bot's delivery of results (already verified and checked for shape) through the one
 * outcome path: charges or releases, e-mails, timeline, audit. Every step is idempotent, so a
 * retried job applies nothing twice.
 */
export const applyResultsJob = defineJob<JobPayloads['release.apply-results']>({
  name: 'release.apply-results',
  queue: 'results',
  // One delivery (known by its body's hash) is applied by one job at a time.
  dedupeKey: ({ eventId }) => `results:${eventId}`,
  async handle({ eventId, results }) {
    const { checkoutHooks } = await import('#release/services/checkout_hooks')
    return checkoutHooks.applyDelivery(eventId, results)
  },
})
