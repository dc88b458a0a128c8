import { defineJob, type JobPayloads } from '#core/jobs/job'

declare module '#core/jobs/job' {
  interface JobPayloads {
    'admin.release-run': {
      productId: number | null
      dryRun: boolean
      actorId: number | null
      actorEmail: string | null
      ip: string | null
    }
  }
}

/** A release run asked for in the console, run by a worker and audited as that admin. */
export const consoleReleaseRunJob = defineJob<JobPayloads['admin.release-run']>({
  // The name jobs already waiting in Redis were queued under.
  name: 'admin.release-run',
  queue: 'release',
  attempts: 1,
  // One console run waits at a time, whoever asked.
  dedupeKey: () => 'console-release-run',
  async handle(payload) {
    const { consoleReleaseRun } = await import('#release/services/console_release_run')
    const actor =
      payload.actorId && payload.actorEmail
        ? { id: payload.actorId, email: payload.actorEmail }
        : null
    return consoleReleaseRun.runNow(
      { productId: payload.productId, dryRun: payload.dryRun },
      { actor, ip: payload.ip }
    )
  },
})
