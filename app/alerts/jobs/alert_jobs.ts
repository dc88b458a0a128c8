import { defineJob } from '#core/jobs/job'
import { alertCheck } from '#alerts/services/alert_check'

/** The one alert check of the cluster (a job scheduler with workers, a timer embedded). */
export const checkAlertsJob = defineJob({
  name: 'alerts.check',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const report = await alertCheck.run()
    return {
      opened: report.opened.length,
      resolved: report.resolved.length,
      undecided: report.undecided,
      notices: report.notices,
    }
  },
})
