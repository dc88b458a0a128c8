import { jobs } from '#core/jobs/jobs'
import { defineRule } from '#alerts/rules/rule'

/** The queues as this process can see them; null when it cannot see them at all. */
export async function readableQueues() {
  const status = await jobs.status().catch(() => null)
  // Embedded, a process that runs no jobs (the CLI) has no queues to read: no verdict.
  if (!status || (jobs.driverName === 'database' && status.length === 0)) return null
  return status
}

/** A queue's oldest waiting job is older than the threshold (60 s): workers stuck or missing. */
export const queueBacklog = defineRule({
  id: 'queue_backlog',
  description: "A queue's oldest waiting job is older than the threshold",
  async evaluate({ thresholds }) {
    const queues = await readableQueues()
    if (!queues) return null
    return queues
      .filter((queue) => (queue.oldestWaitingSeconds ?? 0) > thresholds.queueAgeSeconds)
      .map((queue) => ({
        subject: queue.queue,
        title: `Queue ${queue.queue}: the oldest job has waited ${queue.oldestWaitingSeconds} s`,
        detail:
          `${queue.waiting} waiting, ${queue.active} running in ${queue.queue}; the oldest has ` +
          `waited ${queue.oldestWaitingSeconds} s (threshold ${thresholds.queueAgeSeconds} s). ` +
          'Are its workers running (dropslot queues:status)?',
        value: queue.oldestWaitingSeconds ?? 0,
        threshold: thresholds.queueAgeSeconds,
      }))
  },
})
