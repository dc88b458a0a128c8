import { defineJob } from '#core/jobs/job'

/**
 * Runs every release that is due, as `release:run` with no product does. Scheduled once a minute
 * for the whole cluster; the release lock keeps two runs of one product apart anyway.
 */
export const releaseScanJob = defineJob({
  name: 'release.scan',
  queue: 'release',
  attempts: 1,
  async handle() {
    const { releaseRunner } = await import('#release/services/release_runner')
    return releaseRunner.run({ trigger: 'schedule' })
  },
})
