import { AppError } from '#core/exceptions/app_error'
import { QUEUE_NAMES, type QueueName } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { holdWorker } from '#payments/services/hold_worker'
import { emailDelivery } from '#notifications/services/email_delivery'

const FAILED_SHOWN = 20

export function queueNameOf(value: unknown): QueueName {
  if (!QUEUE_NAMES.includes(value as QueueName)) {
    throw AppError.notFound(`No queue named ${String(value).slice(0, 40)}.`, 'queue_not_found')
  }
  return value as QueueName
}

/**
 * The job queues as an operator sees them, in the console and `dropslot queues:*` alike: counts
 * per queue, the work due in the tables, failed jobs; retrying or discarding one is audited.
 */
export class QueueAdminService {
  async overview() {
    // Embedded, the counts are this process's own queues (the web process runs them).
    const queues = await jobs.status()
    const failedByQueue =
      jobs.driverName === 'bullmq'
        ? await Promise.all(QUEUE_NAMES.map((name) => jobs.failed(name, FAILED_SHOWN)))
        : []
    return {
      driver: jobs.driverName,
      queues,
      backlog: { holds: await holdWorker.backlog(), emails: await emailDelivery.backlog() },
      failed: failedByQueue.flat(),
    }
  }

  async act(
    verb: 'retry' | 'discard',
    queue: QueueName,
    jobId: string,
    who: Pick<AuditEntry, 'actor' | 'ip'>
  ) {
    const done =
      verb === 'retry' ? await jobs.retry(queue, jobId) : await jobs.discard(queue, jobId)
    if (!done) {
      throw AppError.notFound(`No failed job ${jobId.slice(0, 60)} in ${queue}.`, 'job_not_found')
    }
    await auditLog.record({
      ...who,
      action: `queue.${verb}`,
      subjectType: 'job',
      subjectId: `${queue}/${jobId}`,
    })
    return { queue, jobId, done: verb }
  }
}

export const queueAdmin = new QueueAdminService()
