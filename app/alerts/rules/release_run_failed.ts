import { releaseStatus } from '#release/services/release_status'
import { defineRule } from '#alerts/rules/rule'

/**
 * The last release run failed (a bot that is down, a gateway outage) or was interrupted (its
 * process died). Resolves when a later run finishes; no verdict while a run is going.
 */
export const releaseRunFailed = defineRule({
  id: 'release_run_failed',
  description: 'The last release run failed or was interrupted',
  async evaluate() {
    const run = await releaseStatus.lastRun()
    if (!run) return []
    if (run.status === 'running') return null
    if (run.status !== 'failed' && run.status !== 'interrupted') return []
    return [
      {
        subject: '',
        title: `Release run #${run.id} ${run.status}`,
        detail:
          `${run.error ?? 'No reason recorded.'} Submitted ${run.ordersSubmitted}, succeeded ` +
          `${run.ordersSucceeded}, failed ${run.ordersFailed}. The orders it did not hand over ` +
          'stay pending for the next run.',
        value: run.id,
        threshold: 0,
      },
    ]
  },
})
