/*
| Background work of the web process (preloaded for the "web" environment only). With the
| embedded `database` driver the jobs run here, in-process. With `bullmq` this process only
| dispatches: `node ace queue:work` (or `dropslot worker`) runs them.
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import paymentsConfig from '#config/payments'
import queueConfig from '#config/queue'
import { jobs } from '#core/jobs/jobs'
import { QUEUE_NAMES, type QueueName } from '#core/jobs/job'
import { emailWorkerEnabled } from '#config/mail'
import { collectProcessMetrics, setProcessRole } from '#core/services/metrics'
import { signals } from '#core/services/signals'

// This process's metrics say "web"; what it counts for the alerts is written every few seconds.
setProcessRole('web')
collectProcessMetrics()
app.ready(() => signals.start())
app.terminating(() => signals.stop())

if (queueConfig.driver === 'database') {
  // HOLD_WORKER_ENABLED=false leaves the gateway queue to another process, e.g. `dropslot worker`.
  let queues: QueueName[] | undefined = paymentsConfig.holdWorker.enabled
    ? undefined
    : (['email', 'release', 'maintenance'] as const).slice()
  // EMAIL_WORKER_ENABLED=false leaves the email queue (e-mails, pings) the same way.
  if (!emailWorkerEnabled) queues = (queues ?? [...QUEUE_NAMES]).filter((name) => name !== 'email')
  app.ready(() => jobs.work({ queues }))
  app.terminating(() => jobs.stop())
} else {
  // This process only dispatches; start/jobs.ts closes the queues when it ends.
  app.ready(() => logger.info('background jobs run on BullMQ workers (node ace queue:work)'))
}
