import { defineJob } from '#core/jobs/job'
import { releaseRunner } from '#release/services/release_runner'

/**
 * Runs every release that is due, as `release:run` with no product does. Scheduled once a minute
 * for the whole cluster; the release lock keeps two runs of one product apart anyway.
 */
export const releaseScanJob = defineJob({
  name: 'release.scan',
  queue: 'release',
  attempts: 1,
  async handle() {
    return releaseRunner.run({ trigger: 'schedule' })
  },
})
