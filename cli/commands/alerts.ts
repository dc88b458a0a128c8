import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { printResult, printTable } from '../output.js'

function since(iso: string | null) {
  if (!iso) return ''
  const seconds = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000))
  if (seconds < 120) return `${seconds}s ago`
  if (seconds < 7200) return `${Math.round(seconds / 60)}min ago`
  return `${Math.round(seconds / 3600)}h ago`
}

export function registerAlertCommands(program: Command) {
  program
    .command('alerts:status')
    .description('Open alert incidents (the console lists all of them under Incidents)')
    .action(async () => {
      await bootApp()
      const { incidents, presentIncident } = await import('#alerts/services/incidents')
      const rows = await incidents.open()
      const open = rows.map(presentIncident)
      printResult(program.opts(), { success: true, open }, [
        open.length ? `${open.length} open incident(s)` : 'No open incident.',
        ...(open.length
          ? printTable(
              open.map((incident) => ({
                '#': incident.id,
                'rule': incident.subject ? `${incident.rule} (${incident.subject})` : incident.rule,
                'opened': `${incident.openedAt} (${since(incident.openedAt)})`,
                'title': incident.title,
              }))
            )
          : []),
      ])
    })

  program
    .command('alerts:check')
    .description(
      'Evaluate the alert rules now and send what opened or resolved (the scheduled check does ' +
        'this every ALERT_CHECK_SECONDS)'
    )
    .action(async () => {
      await bootApp()
      const { alertCheck } = await import('#alerts/services/alert_check')
      const report = await alertCheck.run()
      printResult(program.opts(), { success: true, ...report }, [
        `Opened ${report.opened.length}, resolved ${report.resolved.length}; webhook messages ` +
          `sent ${report.notices.sent}, failed ${report.notices.failed}`,
        ...report.opened.map((incident) => `  opened #${incident.id}: ${incident.title}`),
        ...report.resolved.map((incident) => `  resolved #${incident.id}: ${incident.title}`),
        ...(report.undecided.length
          ? [`No verdict this time (data not readable from here): ${report.undecided.join(', ')}`]
          : []),
      ])
    })
}
