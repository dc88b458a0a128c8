import queueConfig from '#config/queue'
import { DeferredBullmqDriver } from '#core/jobs/deferred_bullmq_driver'
import { InProcessDriver } from '#core/jobs/in_process_driver'
import {
  jobRegistry,
  QUEUE_NAMES,
  type DispatchOptions,
  type JobDefinition,
  type JobName,
  type JobPayloads,
  type QueueName,
} from '#core/jobs/job'
import type { QueueDriver, WorkOptions } from '#core/jobs/queue_driver'
import logger from '@adonisjs/core/services/logger'

export function createDriver(
  driver: 'database' | 'bullmq',
  settings: { redisUrl: string; prefix: string; stalledAfterMs?: number } = queueConfig
): QueueDriver {
  return driver === 'bullmq'
    ? new DeferredBullmqDriver(settings.redisUrl, settings.prefix, settings.stalledAfterMs)
    : new InProcessDriver()
}

/**
 * The one way background work is dispatched, from HTTP, the CLI, schedules and other jobs alike.
 * A dispatch never fails the caller's work: the row it points at is already written, and the
 * sweeps find it if the doorbell is lost (Redis down, process gone).
 */
export class Jobs {
  constructor(private driver: QueueDriver) {}

  get driverName() {
    return this.driver.kind
  }

  /**
   * Services dispatch by the job's name (they never import a job); jobs and schedules may pass
   * the definition. Either way the job's own `dedupeKey` builds the dedupe id.
   */
  async dispatch<Name extends JobName>(
    job: Name,
    payload: JobPayloads[Name],
    options?: DispatchOptions
  ): Promise<void>
  async dispatch<Payload extends Record<string, unknown>>(
    job: JobDefinition<Payload>,
    payload: Payload,
    options?: DispatchOptions
  ): Promise<void>
  async dispatch(
    job: string | JobDefinition<any>,
    payload: Record<string, unknown>,
    options?: DispatchOptions
  ) {
    const definition = typeof job === 'string' ? jobRegistry.find(job) : job
    if (!definition) {
      logger.error({ job }, 'dispatch of a job that is not registered in start/jobs.ts')
      return
    }
    try {
      await this.driver.dispatch(definition, payload, {
        ...options,
        dedupeId: definition.dedupeKey?.(payload),
      })
    } catch (error) {
      logger.warn(
        { err: error, job: definition.name },
        'dispatch failed; the sweep will find the work'
      )
    }
  }

  /** Runs jobs in this process (the web process with `database`, workers with `bullmq`). */
  work(options: Partial<WorkOptions> = {}) {
    return this.driver.start({
      queues: options.queues ?? [...QUEUE_NAMES],
      concurrency: options.concurrency ?? queueConfig.concurrency,
      gatewayRatePerSecond: options.gatewayRatePerSecond ?? queueConfig.gatewayRatePerSecond,
      schedules: options.schedules ?? true,
    })
  }

  stop() {
    return this.driver.stop()
  }

  close() {
    return this.driver.close()
  }

  status() {
    return this.driver.status()
  }

  failed(queue: QueueName, limit = 20) {
    return this.driver.failed ? this.driver.failed(queue, limit) : Promise.resolve([])
  }

  retry(queue: QueueName, id: string) {
    return this.driver.retry ? this.driver.retry(queue, id) : Promise.resolve(false)
  }

  discard(queue: QueueName, id: string) {
    return this.driver.discard ? this.driver.discard(queue, id) : Promise.resolve(false)
  }

  /** Swaps the driver (tests run the same jobs on both). Returns the previous one. */
  use(driver: QueueDriver) {
    const previous = this.driver
    this.driver = driver
    return previous
  }
}

export const jobs = new Jobs(createDriver(queueConfig.driver))
