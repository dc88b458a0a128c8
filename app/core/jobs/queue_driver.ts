import type { DriverDispatchOptions, JobDefinition, QueueName } from '#core/jobs/job'

export type WorkOptions = {
  queues: QueueName[]
  concurrency: number
  gatewayRatePerSecond: number
  /** Also fire the registered schedules (the release scan, the sweeps), or only these ids. */
  schedules: boolean | readonly string[]
}

export type QueueStatus = {
  queue: QueueName
  waiting: number
  active: number
  delayed: number
  failed: number
  oldestWaitingSeconds: number | null
}

export type FailedJob = {
  id: string
  queue: QueueName
  name: string
  payload: unknown
  attempts: number
  error: string
  failedAt: string | null
}

export interface QueueDriver {
  /** `database`: jobs run in this process from the tables; `bullmq`: on workers through Redis. */
  readonly kind: 'database' | 'bullmq'
  dispatch(job: JobDefinition<any>, payload: any, options?: DriverDispatchOptions): Promise<void>
  /** Runs jobs of these queues in this process until `stop()`. */
  start(options: WorkOptions): Promise<void>
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>
  status(): Promise<QueueStatus[]>
  /** Releases connections (a dispatching process that never started workers). */
  close(): Promise<void>
  failed?(queue: QueueName, limit: number): Promise<FailedJob[]>
  retry?(queue: QueueName, id: string): Promise<boolean>
  discard?(queue: QueueName, id: string): Promise<boolean>
}
