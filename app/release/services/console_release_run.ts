import { AppError } from '#core/exceptions/app_error'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { releaseRunner, presentOneRun, type RunReport } from '#release/services/release_runner'
import { RELEASE_LOCK, releaseLock } from '#release/services/release_lock'
import { jobs } from '#core/jobs/jobs'

export type ConsoleRunOptions = { productId?: number | null; dryRun?: boolean }

/**
 * Release day from the console: the same run as `npx dropslot release:run [--product] [--dry-run]`
 * (the configured engine, the shared lock), audited. Embedded it runs within the request; with
 * workers (QUEUE_DRIVER=bullmq) it is a job and the answer is `{queued: true}`, the console then
 * follows the run in the list. A run already in progress (the CLI, the scheduler or another
 * admin) is a 409, never a second run.
 */
export class ConsoleReleaseRun {
  async run(options: ConsoleRunOptions, who: Pick<AuditEntry, 'actor' | 'ip'>) {
    if (jobs.driverName !== 'bullmq') return this.runNow(options, who)
    const holder = await releaseLock.holder(RELEASE_LOCK)
    if (holder) throw inProgress(holder.owner)
    const productId = options.productId ?? null
    const dryRun = options.dryRun ?? false
    await jobs.dispatch('admin.release-run', {
      productId,
      dryRun,
      actorId: who.actor?.id ?? null,
      actorEmail: who.actor?.email ?? null,
      ip: who.ip ?? null,
    })
    return { queued: true as const, productId, dryRun }
  }

  async runNow(options: ConsoleRunOptions, who: Pick<AuditEntry, 'actor' | 'ip'>) {
    const productId = options.productId ?? null
    const dryRun = options.dryRun ?? false
    const report = await releaseRunner.run({ productId, dryRun, trigger: 'console' })
    if (report.status === 'skipped' || report.runId === null) throw inProgress(report.lockedBy)
    const run = await releaseRunner.findRun(report.runId)
    await auditLog.record({
      ...who,
      action: dryRun ? 'release.dry_run' : 'release.run',
      subjectType: 'release_run',
      subjectId: report.runId,
      meta: {
        productId,
        engine: report.engine,
        status: report.status,
        submitted: report.submitted,
        succeeded: report.succeeded,
        failed: report.failed,
        feesCharged: report.feesCharged,
        feesDue: report.feesDue,
        ...(report.plan ? { plan: report.plan } : {}),
        ...(report.error ? { error: report.error } : {}),
      },
    })
    return { ...(await presentOneRun(run)), report: presentReport(report) }
  }
}

function inProgress(lockedBy?: string | null) {
  return AppError.conflict(
    `Another release run is in progress (${lockedBy ?? 'another run'}); ` +
      'wait for it to finish, then run again.',
    'release_run_in_progress'
  )
}

/** What the run did beyond the run record's counts (products, plan, waits), for the dialog. */
function presentReport(report: RunReport) {
  return {
    products: report.products,
    awaitingResult: report.awaitingResult,
    submitErrors: report.submitErrors,
    resumed: report.resumed,
    feeRetries: report.feeRetries,
    awaitingHold: report.awaitingHold,
    plan: report.plan ?? null,
  }
}

export const consoleReleaseRun = new ConsoleReleaseRun()
