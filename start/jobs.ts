/*
| The job catalogue: every background job a worker may be asked to run, and the schedules the
| workers fire. Preloaded everywhere, so any process can dispatch and any worker can run.
*/
import app from '@adonisjs/core/services/app'
import queueConfig from '#config/queue'
import paymentsConfig from '#config/payments'
import { jobs } from '#core/jobs/jobs'
import { jobRegistry, type JobDefinition, type JobName, type JobPayloads } from '#core/jobs/job'
import { placeHoldJob, renewHoldJob, sweepHoldsJob } from '#payments/jobs/hold_jobs'
import { deliverEmailJob, deliverPingsJob, sweepOutboxJob } from '#notifications/jobs/email_jobs'
import { releaseScanJob } from '#release/jobs/release_scan_job'
import { applyResultsJob } from '#release/jobs/apply_results_job'
import { completeResultJob, retryFeeJob, sweepResultsJob } from '#release/jobs/settlement_jobs'
import { consoleReleaseRunJob } from '#release/jobs/console_release_run_job'
import { purgeCardCodesJob } from '#profiles/jobs/purge_card_codes_job'
import { runDueDrawsJob } from '#draws/jobs/draw_jobs'
import { checkAlertsJob } from '#alerts/jobs/alert_jobs'
import alertsConfig from '#config/alerts'
import { purgeMailJob, readMailboxJob } from '#mail/jobs/mail_jobs'
import { mailIntakeConfig } from '#config/mail_intake'

const embedded = queueConfig.driver === 'database'

// The jobs services dispatch by name: every name of `JobPayloads` with a definition of that payload
// (checked by the compiler) under that very name (checked here, at boot).
const byName = {
  'payments.place-hold': placeHoldJob,
  'notifications.deliver-email': deliverEmailJob,
  'notifications.deliver-pings': deliverPingsJob,
  'release.apply-results': applyResultsJob,
  'release.complete-result': completeResultJob,
  'release.retry-fee': retryFeeJob,
  'admin.release-run': consoleReleaseRunJob,
} satisfies { [Name in JobName]: JobDefinition<JobPayloads[Name]> }
for (const [name, job] of Object.entries(byName)) {
  if (job.name !== name) throw new Error(`Job ${job.name} is listed under the name ${name}`)
}

jobRegistry.register(...Object.values(byName), renewHoldJob)
// In one embedded process the sweeps are the engine, so they run often; with workers they only
// re-find work whose job was lost.
jobRegistry.schedule({
  id: 'sweep-holds',
  job: sweepHoldsJob,
  everyMs: embedded ? paymentsConfig.holdWorker.pollMs : 10_000,
  feeds: 'gateway',
})
jobRegistry.schedule({
  id: 'sweep-outbox',
  job: sweepOutboxJob,
  everyMs: embedded ? 2000 : 15_000,
  feeds: 'email',
})
jobRegistry.schedule({ id: 'purge-card-codes', job: purgeCardCodesJob, everyMs: 15 * 60 * 1000 })
// A draw runs within a minute of its entries closing, embedded or on workers.
jobRegistry.schedule({ id: 'run-due-draws', job: runDueDrawsJob, everyMs: 60_000 })
// The alert check: one firing per interval for the cluster with workers (a job scheduler); each
// embedded web process fires its own, and the incidents' unique open key makes them agree.
jobRegistry.schedule({
  id: 'check-alerts',
  job: checkAlertsJob,
  everyMs: alertsConfig.checkEverySeconds * 1000,
})
// The retailers' e-mail: the catch-all mailbox read on a timer (when one is configured), and
// the raw messages past their retention deleted.
jobRegistry.schedule({ id: 'purge-mail', job: purgeMailJob, everyMs: 60 * 60 * 1000 })
if (mailIntakeConfig().imapUrl) {
  jobRegistry.schedule({
    id: 'read-mailbox',
    job: readMailboxJob,
    everyMs: mailIntakeConfig().imapPollSeconds * 1000,
  })
} else {
  jobRegistry.register(readMailboxJob)
}
// Embedded installs run releases from cron or `dropslot schedule:work` (and the next run applies
// results left unapplied); workers need neither.
if (!embedded) {
  jobRegistry.schedule({ id: 'release-scan', job: releaseScanJob, everyMs: 60_000 })
  jobRegistry.schedule({ id: 'sweep-results', job: sweepResultsJob, everyMs: 15_000 })
}

// Every process closes its queues when it ends, whatever it is (web, worker, an ace command such
// as db:seed, the CLI): with BullMQ a dispatch opens Redis connections that would otherwise keep
// a finished command alive for ever.
app.terminating(() => jobs.close())
