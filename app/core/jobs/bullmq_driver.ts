import { Queue, Worker, type Job } from 'bullmq'
import { Redis } from 'ioredis'
import logger from '@adonisjs/core/services/logger'
import {
  QUEUE_NAMES,
  jobRegistry,
  type DriverDispatchOptions,
  type JobDefinition,
  type QueueName,
} from '#core/jobs/job'
import type { FailedJob, QueueDriver, QueueStatus, WorkOptions } from '#core/jobs/queue_driver'

const DEFAULT_ATTEMPTS = 5
/** Finished jobs kept for the operator: an hour of successes, a week of failures. */
const KEEP_COMPLETED = { age: 3600, count: 1000 }
const KEEP_FAILED = { age: 7 * 24 * 3600 }

/**
 * BullMQ on Redis. Web processes only dispatch; `queue:work` processes run the jobs. The gateway
 * queue's limiter is kept in Redis, so its rate holds for all workers together, and each schedule
 * is one BullMQ job scheduler, so it fires once per interval however many workers upsert it.
 */
export class BullmqDriver implements QueueDriver {
  readonly kind = 'bullmq' as const
  private queues = new Map<QueueName, Queue>()
  private workers: Worker[] = []
  private stopping: Promise<unknown> = Promise.resolve()
  private connections: Redis[] = []

  constructor(
    private redisUrl: string,
    private prefix: string,
    /** A job's lock without renewal, and how often lapsed ones are looked for (BullMQ's 30 s). */
    private stalledAfterMs = 30_000
  ) {}

  async dispatch(job: JobDefinition<any>, payload: any, options: DriverDispatchOptions = {}) {
    await this.queue(job.queue).add(job.name, payload, {
      deduplication: options.dedupeId ? { id: options.dedupeId } : undefined,
      delay: options.delayMs,
      attempts: job.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    })
  }

  async start(options: WorkOptions) {
    for (const name of options.queues) {
      const worker = new Worker(name, (job: Job) => this.process(job), {
        connection: this.connection(true),
        prefix: this.prefix,
        concurrency: name === 'release' ? 1 : options.concurrency,
        lockDuration: this.stalledAfterMs,
        stalledInterval: this.stalledAfterMs,
        limiter:
          name === 'gateway' ? { max: options.gatewayRatePerSecond, duration: 1000 } : undefined,
      })
      // An attempt that BullMQ retries is a warning; only a job out of attempts is an error.
      worker.on('failed', (job, error) => {
        const attempts = job?.attemptsMade ?? 0
        const details = { err: error, job: job?.name, jobId: job?.id, attempts }
        if (job && attempts < (job.opts.attempts ?? 1)) {
          logger.warn(details, 'job attempt failed; it is retried with back-off')
        } else {
          logger.error(details, 'job failed; it waits in the failed set (dropslot queues:failed)')
        }
      })
      worker.on('error', (error) => logger.error({ err: error, queue: name }, 'worker error'))
      this.workers.push(worker)
    }
    for (const schedule of jobRegistry.schedulesFor(options.schedules)) {
      await this.queue(schedule.job.queue).upsertJobScheduler(
        schedule.id,
        { every: schedule.everyMs },
        {
          name: schedule.job.name,
          data: {},
          opts: { attempts: 1, removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED },
        }
      )
    }
  }

  async stop() {
    const workers = this.workers
    this.workers = []
    // close() stops fetching and waits for the jobs that are running; a second stop (the app
    // terminating) waits for them too.
    this.stopping = Promise.all([this.stopping, ...workers.map((worker) => worker.close())])
    await this.stopping
  }

  async close() {
    await this.stop()
    await Promise.all([...this.queues.values()].map((queue) => queue.close()))
    this.queues.clear()
    await Promise.all(this.connections.map((connection) => connection.quit().catch(() => {})))
    this.connections = []
  }

  async status(): Promise<QueueStatus[]> {
    return Promise.all(
      QUEUE_NAMES.map(async (name) => {
        const queue = this.queue(name)
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed')
        const [oldest] = await queue.getJobs(['waiting'], 0, 0, true)
        return {
          queue: name,
          waiting: counts.waiting ?? 0,
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          failed: counts.failed ?? 0,
          oldestWaitingSeconds: oldest ? Math.round((Date.now() - oldest.timestamp) / 1000) : null,
        }
      })
    )
  }

  async failed(name: QueueName, limit: number): Promise<FailedJob[]> {
    const jobs = await this.queue(name).getFailed(0, Math.max(limit - 1, 0))
    return jobs.map((job) => ({
      id: String(job.id),
      queue: name,
      name: job.name,
      payload: job.data,
      attempts: job.attemptsMade,
      error: String(job.failedReason ?? '').slice(0, 500),
      failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    }))
  }

  async retry(name: QueueName, id: string) {
    const job = await this.queue(name).getJob(id)
    if (!job || !(await job.isFailed())) return false
    await job.retry('failed')
    return true
  }

  async discard(name: QueueName, id: string) {
    const job = await this.queue(name).getJob(id)
    if (!job || !(await job.isFailed())) return false
    await job.remove()
    return true
  }

  /** The schedules in Redis (one per id, whoever upserted it). */
  async schedulerIds() {
    const lists = await Promise.all(
      QUEUE_NAMES.map((name) => this.queue(name).getJobSchedulers(0, -1))
    )
    return lists.flat().map((scheduler) => scheduler.key)
  }

  /** Deletes every queue's keys under this prefix (tests). */
  async obliterate() {
    for (const name of QUEUE_NAMES) await this.queue(name).obliterate({ force: true })
  }

  private async process(job: Job) {
    const definition = jobRegistry.find(job.name)
    if (!definition) throw new Error(`No job named ${job.name} is registered in this worker.`)
    return definition.handle(job.data)
  }

  private queue(name: QueueName) {
    let queue = this.queues.get(name)
    if (!queue) {
      queue = new Queue(name, { connection: this.connection(false), prefix: this.prefix })
      queue.on('error', (error) => logger.error({ err: error, queue: name }, 'queue error'))
      this.queues.set(name, queue)
    }
    return queue
  }

  /** Workers block on Redis and must retry for ever; producers fail fast instead. */
  private connection(forWorker: boolean) {
    const connection = new Redis(this.redisUrl, {
      maxRetriesPerRequest: forWorker ? null : 2,
      enableOfflineQueue: forWorker,
    })
    connection.on('error', (error) => logger.error({ err: error }, 'redis connection error'))
    this.connections.push(connection)
    return connection
  }
}
