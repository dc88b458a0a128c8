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
import db from '@adonisjs/lucid/services/db'
import dbConfig, { sqliteCheckpointEveryMs, sqliteFile } from '#config/database'
import { walCheckpoints } from '#core/services/wal_checkpoints'

// This process's metrics say "web"; what it counts for the alerts is written every few seconds.
setProcessRole('web')
collectProcessMetrics()
app.ready(() => signals.start())
app.terminating(() => signals.stop())

if (dbConfig.connection === 'sqlite' && sqliteCheckpointEveryMs > 0) {
  // The writer's own threshold follows the thread: raised while it runs, SQLite's after it ends.
  const writerPages = () => db.rawQuery(`PRAGMA wal_autocheckpoint = ${walCheckpoints.writerPages}`)
  app.ready(async () => {
    // The request thread's connection opens the file (and makes it WAL) before the thread does.
    await writerPages()
    walCheckpoints.start(sqliteFile, sqliteCheckpointEveryMs, (problem) => {
      logger.warn(problem)
      if (!walCheckpoints.running) writerPages().catch(() => {})
    })
    await writerPages()
  })
  app.terminating(() => walCheckpoints.stop())
}

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
