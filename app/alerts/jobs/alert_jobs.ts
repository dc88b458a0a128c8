import { defineJob } from '#core/jobs/job'

/** The one alert check of the cluster (a job scheduler with workers, a timer embedded). */
export const checkAlertsJob = defineJob({
  name: 'alerts.check',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { alertCheck } = await import('#alerts/services/alert_check')
    const report = await alertCheck.run()
    return {
      opened: report.opened.length,
      resolved: report.resolved.length,
      undecided: report.undecided,
      notices: report.notices,
    }
  },
})
