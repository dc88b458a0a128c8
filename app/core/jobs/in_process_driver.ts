import logger from '@adonisjs/core/services/logger'
import {
  jobRegistry,
  scheduleKey,
  type DriverDispatchOptions,
  type JobDefinition,
  type QueueName,
} from '#core/jobs/job'
import type { QueueDriver, QueueStatus, WorkOptions } from '#core/jobs/queue_driver'
import { clock } from '#core/services/clock'

/** Jobs given up in this process are counted as failed for an hour (nothing keeps them). */
const FAILED_KEPT_MS = 60 * 60 * 1000

type Entry = {
  job: JobDefinition<any>
  payload: any
  dedupeId?: string
  attempt: number
  at: number
}

/**
 * The embedded driver: jobs run inside the process that started it (the web process), with the
 * same per-queue concurrency and gateway rate as BullMQ workers. Nothing is kept outside memory:
 * the tables hold the work, so a job lost with the process is found again by the sweeps. In a
 * process that has not started it (the CLI, a test that did not ask), dispatch leaves the work to
 * those sweeps.
 */
export class InProcessDriver implements QueueDriver {
  readonly kind = 'database' as const
  private lanes = new Map<QueueName, Lane>()
  private timers: NodeJS.Timeout[] = []

  async dispatch(job: JobDefinition<any>, payload: any, options: DriverDispatchOptions = {}) {
    const lane = this.lanes.get(job.queue)
    if (!lane) return
    lane.add(
      { job, payload, dedupeId: options.dedupeId, attempt: 1, at: clock.nowMs() },
      options.delayMs
    )
  }

  async start(options: WorkOptions) {
    for (const queue of options.queues) {
      if (this.lanes.has(queue)) continue
      this.lanes.set(
        queue,
        new Lane(
          queue,
          queue === 'release' ? 1 : options.concurrency,
          queue === 'gateway' ? options.gatewayRatePerSecond : null
        )
      )
    }
    for (const schedule of jobRegistry.schedulesFor(options.schedules)) {
      // A sweep is of no use where the queue it feeds is not worked. It runs on its own queue's
      // lane, off the gateway's rate; a worker of the fed queue alone runs it on that lane.
      if (schedule.feeds && !this.lanes.has(schedule.feeds)) continue
      const lane =
        this.lanes.get(schedule.job.queue) ?? (schedule.feeds && this.lanes.get(schedule.feeds))
      if (!lane) continue
      const firing = () =>
        lane.add({
          job: schedule.job,
          payload: {},
          dedupeId: scheduleKey(schedule.id),
          attempt: 1,
          at: clock.nowMs(),
        })
      const timer = setInterval(firing, schedule.everyMs)
      timer.unref()
      this.timers.push(timer)
    }
  }

  async stop() {
    for (const timer of this.timers) clearInterval(timer)
    this.timers = []
    const lanes = [...this.lanes.values()]
    this.lanes.clear()
    await Promise.all(lanes.map((lane) => lane.stop()))
  }

  async status(): Promise<QueueStatus[]> {
    return [...this.lanes.values()].map((lane) => lane.status())
  }

  async close() {
    await this.stop()
  }
}

/** One queue's jobs in this process: a concurrency limit, an optional rate, retries. */
class Lane {
  private waiting: Entry[] = []
  private delayed = new Set<NodeJS.Timeout>()
  private ids = new Set<string>()
  private active = 0
  /** When jobs were given up (the last hour's). */
  private failures: number[] = []
  private starts: number[] = []
  private rateTimer: NodeJS.Timeout | null = null
  private stopped = false
  private idle: (() => void)[] = []

  constructor(
    private name: QueueName,
    private concurrency: number,
    private ratePerSecond: number | null
  ) {}

  add(entry: Entry, delayMs = 0) {
    if (this.stopped) return
    if (entry.dedupeId && entry.attempt === 1) {
      if (this.ids.has(entry.dedupeId)) return
      this.ids.add(entry.dedupeId)
    }
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        this.delayed.delete(timer)
        this.enqueue(entry)
      }, delayMs)
      timer.unref()
      this.delayed.add(timer)
      return
    }
    this.enqueue(entry)
  }

  status(): QueueStatus {
    const oldest = this.waiting[0]
    const now = clock.nowMs()
    this.failures = this.failures.filter((at) => now - at < FAILED_KEPT_MS)
    return {
      queue: this.name,
      waiting: this.waiting.length,
      active: this.active,
      delayed: this.delayed.size,
      failed: this.failures.length,
      oldestWaitingSeconds: oldest ? Math.max(0, Math.round((now - oldest.at) / 1000)) : null,
    }
  }

  /** Stops taking jobs and waits for the running ones. */
  async stop() {
    this.stopped = true
    for (const timer of this.delayed) clearTimeout(timer)
    this.delayed.clear()
    if (this.rateTimer) clearTimeout(this.rateTimer)
    this.waiting = []
    if (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve))
  }

  private enqueue(entry: Entry) {
    if (this.stopped) return
    this.waiting.push(entry)
    this.pump()
  }

  private pump() {
    while (!this.stopped && this.active < this.concurrency && this.waiting.length > 0) {
      const wait = this.rateWait()
      if (wait > 0) {
        if (!this.rateTimer) {
          this.rateTimer = setTimeout(() => {
            this.rateTimer = null
            this.pump()
          }, wait)
          this.rateTimer.unref()
        }
        return
      }
      this.run(this.waiting.shift()!)
    }
  }

  /** Milliseconds until another job may start under the rate (0: now). */
  private rateWait() {
    if (!this.ratePerSecond) return 0
    const now = Date.now()
    this.starts = this.starts.filter((at) => now - at < 1000)
    if (this.starts.length < this.ratePerSecond) {
      this.starts.push(now)
      return 0
    }
    return 1000 - (now - this.starts[0]) + 1
  }

  private async run(entry: Entry) {
    this.active += 1
    let retrying = false
    try {
      await entry.job.handle(entry.payload)
    } catch (error) {
      const attempts = entry.job.attempts ?? 3
      if (entry.attempt < attempts) {
        retrying = true
        logger.warn(
          { err: error, job: entry.job.name, attempts: entry.attempt },
          'job attempt failed; it is retried with back-off'
        )
        this.add({ ...entry, attempt: entry.attempt + 1 }, 1000 * 2 ** (entry.attempt - 1))
      } else {
        this.failures.push(clock.nowMs())
        logger.error(
          { err: error, job: entry.job.name, attempts: entry.attempt },
          'job failed; its sweep will find the work again'
        )
      }
    } finally {
      if (entry.dedupeId && !retrying) this.ids.delete(entry.dedupeId)
      this.active -= 1
      if (this.active === 0) for (const resolve of this.idle.splice(0)) resolve()
      this.pump()
    }
  }
}
