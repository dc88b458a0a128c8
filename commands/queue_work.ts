import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/** `node ace queue:work`: a worker process (the same as `dropslot worker`). */
export default class QueueWork extends BaseCommand {
  static commandName = 'queue:work'
  static description =
    'Run background jobs (holds, e-mail, release scan, sweeps) until SIGTERM; with ' +
    'QUEUE_DRIVER=bullmq start as many as you need'
  static options: CommandOptions = { startApp: true, staysAlive: true }

  @flags.string({
    description: 'Comma-separated queues: gateway,email,release,results,maintenance',
  })
  declare queues?: string

  @flags.string({ description: 'Jobs run at once per queue (default QUEUE_CONCURRENCY or 5)' })
  declare concurrency?: string

  @flags.string({
    description:
      "Serve this worker's /metrics on this port (needs METRICS_TOKEN; default WORKER_METRICS_PORT)",
  })
  declare metricsPort?: string

  async run() {
    const { parseConcurrency, parseMetricsPort, parseQueues, runWorker } =
      await import('#core/jobs/run_worker')
    let queues
    let concurrency
    let metricsPort
    try {
      queues = parseQueues(this.queues)
      concurrency = parseConcurrency(this.concurrency)
      metricsPort = parseMetricsPort(this.metricsPort)
    } catch (error) {
      this.logger.error((error as Error).message)
      this.exitCode = 2
      return this.terminate()
    }
    await runWorker({ queues, concurrency, metricsPort })
    await this.terminate()
  }
}
