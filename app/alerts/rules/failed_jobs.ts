import { defineRule } from '#alerts/rules/rule'
import { readableQueues } from '#alerts/rules/queue_backlog'

/**
 * Jobs that used up their attempts: with BullMQ they wait in the failed set until an operator
 * retries or discards them (`dropslot queues:failed`), which resolves the incident; embedded,
 * the jobs given up in the last hour (their sweeps find the work again).
 */
export const failedJobs = defineRule({
  id: 'failed_jobs',
  description: 'Failed jobs in a queue above the threshold',
  async evaluate({ thresholds }) {
    const queues = await readableQueues()
    if (!queues) return null
    return queues
      .filter((queue) => queue.failed > thresholds.failedJobs)
      .map((queue) => ({
        subject: queue.queue,
        title: `Queue ${queue.queue}: ${queue.failed} failed job(s)`,
        detail:
          `${queue.failed} job(s) of ${queue.queue} used up their attempts (threshold ` +
          `${thresholds.failedJobs}). See them with dropslot queues:failed ${queue.queue}, then ` +
          'queues:retry or queues:discard.',
        value: queue.failed,
        threshold: thresholds.failedJobs,
      }))
  },
})
