import type { DriverDispatchOptions, JobDefinition, QueueName } from '#core/jobs/job'
import type { QueueDriver, WorkOptions } from '#core/jobs/queue_driver'
import type { BullmqDriver } from '#core/jobs/bullmq_driver'

/**
 * The BullMQ driver, loaded on its first call: BullMQ takes about 80 ms to import, which a
 * process that never dispatches (most CLI commands, `--help` aside) should not pay.
 */
export class DeferredBullmqDriver implements QueueDriver {
  readonly kind = 'bullmq' as const
  private loading: Promise<BullmqDriver> | null = null

  constructor(
    private redisUrl: string,
    private prefix: string,
    private stalledAfterMs?: number
  ) {}

  private driver() {
    this.loading ??= import('#core/jobs/bullmq_driver').then(
      ({ BullmqDriver: Driver }) => new Driver(this.redisUrl, this.prefix, this.stalledAfterMs)
    )
    return this.loading
  }

  async dispatch(job: JobDefinition<any>, payload: any, options?: DriverDispatchOptions) {
    const driver = await this.driver()
    return driver.dispatch(job, payload, options)
  }

  async start(options: WorkOptions) {
    const driver = await this.driver()
    return driver.start(options)
  }

  async stop() {
    if (!this.loading) return
    const driver = await this.loading
    return driver.stop()
  }

  async close() {
    if (!this.loading) return
    const driver = await this.loading
    return driver.close()
  }

  async status() {
    const driver = await this.driver()
    return driver.status()
  }

  async failed(queue: QueueName, limit: number) {
    const driver = await this.driver()
    return driver.failed(queue, limit)
  }

  async retry(queue: QueueName, id: string) {
    const driver = await this.driver()
    return driver.retry(queue, id)
  }

  async discard(queue: QueueName, id: string) {
    const driver = await this.driver()
    return driver.discard(queue, id)
  }
}
