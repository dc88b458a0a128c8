/**
 * Queues of background work. `gateway` is limited to the payment gateway's rate across all
 * workers; `release` runs one job at a time; `results` applies bots' results while a run goes on.
 */
export const QUEUE_NAMES = ['gateway', 'email', 'release', 'results', 'maintenance'] as const
export type QueueName = (typeof QUEUE_NAMES)[number]

/**
 * A background action with a typed payload. The tables stay the truth: a job only says "this row
 * has work", its handler claims the row with a conditional UPDATE, so running it twice (a retry,
 * a redelivery, a sweep that found it too) does the work once.
 */
export type JobDefinition<Payload extends Record<string, unknown> = Record<string, never>> = {
  /** `<module>.<action>`, e.g. `payments.place-hold`. */
  name: string
  queue: QueueName
  handle(payload: Payload): Promise<unknown>
  /** Tries before the job waits in the failed set (BullMQ) or is left to the sweep. */
  attempts?: number
  /**
   * The job's dedupe id, built here and nowhere else: a second dispatch with the same id while
   * the first is waiting or running is dropped (`hold:12` for order 12's hold). Unset: every
   * dispatch is its own job.
   */
  dedupeKey?: (payload: Payload) => string
}

/**
 * The payload of each job by its name, for the services that dispatch it: jobs call services,
 * services never import jobs, so a service names the job (`jobs.dispatch('payments.place-hold',
 * { orderId })`) and the job declares its payload beside its definition:
 *
 *   declare module '#core/jobs/job' {
 *     interface JobPayloads { 'payments.place-hold': { orderId: number } }
 *   }
 *   export const placeHoldJob = defineJob<JobPayloads['payments.place-hold']>({ name: ... })
 *
 * The definition (queue, `dedupeKey`) is the registered one (`start/jobs.ts`), found by name.
 */
export interface JobPayloads {}
export type JobName = keyof JobPayloads

/** What a caller may ask of a dispatch; the dedupe id is the job's own (`dedupeKey`). */
export type DispatchOptions = {
  delayMs?: number
}

/** What a driver is handed: the caller's options and the job's dedupe id. */
export type DriverDispatchOptions = DispatchOptions & { dedupeId?: string }

/** The dedupe id of a schedule's firing in one process: `schedule:<id>`. */
export const scheduleKey = (scheduleId: string) => `schedule:${scheduleId}`

/**
 * A job run on a timer: once per interval for the whole cluster. `feeds` names the queue whose
 * jobs it dispatches (a sweep finding lost work): an embedded process fires it only where it
 * works that queue, since elsewhere its dispatches would go nowhere, and a worker of that queue
 * alone runs it on that queue's lane.
 */
export type Schedule = {
  id: string
  job: JobDefinition<any>
  everyMs: number
  feeds?: QueueName
}

export function defineJob<Payload extends Record<string, unknown> = Record<string, never>>(
  definition: JobDefinition<Payload>
): JobDefinition<Payload> {
  return definition
}

/** Every job by name, so a worker can run what another process dispatched. */
export class JobRegistry {
  private jobs = new Map<string, JobDefinition<any>>()
  private timers: Schedule[] = []

  register(...jobs: JobDefinition<any>[]) {
    for (const job of jobs) this.jobs.set(job.name, job)
  }

  schedule(schedule: Schedule) {
    this.register(schedule.job)
    this.timers = [...this.timers.filter((item) => item.id !== schedule.id), schedule]
  }

  find(name: string) {
    return this.jobs.get(name)
  }

  get schedules(): readonly Schedule[] {
    return this.timers
  }

  /** The schedules a worker fires: all of them, none, or those ids. */
  schedulesFor(selection: boolean | readonly string[]): readonly Schedule[] {
    if (selection === true) return this.timers
    if (selection === false) return []
    return this.timers.filter((schedule) => selection.includes(schedule.id))
  }

  get names() {
    return [...this.jobs.keys()]
  }
}

export const jobRegistry = new JobRegistry()
