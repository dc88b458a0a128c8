import { DateTime } from 'luxon'
import logger from '@adonisjs/core/services/logger'
import alertsConfig from '#config/alerts'
import { signals } from '#core/services/signals'
import type { AlertRule, Finding } from '#alerts/rules/rule'
import { ALERT_RULES } from '#alerts/rules/index'
import { incidents } from '#alerts/services/incidents'
import { alertNotifier } from '#alerts/services/alert_notifier'

export type CheckReport = {
  opened: { id: number; rule: string; subject: string; title: string }[]
  resolved: { id: number; rule: string; subject: string; title: string }[]
  /** Rules that could not tell this time (their data could not be read). */
  undecided: string[]
  notices: { sent: number; failed: number }
}

/**
 * The alert check: evaluates every rule, opens an incident for each new finding, resolves the
 * open incidents whose finding is gone, and sends the notices due. One scheduled job runs it for
 * the whole cluster (a BullMQ job scheduler with workers); embedded, each web process's timer
 * runs it, and the unique open key and the conditional resolve make two checks at once open and
 * resolve each incident once.
 */
export class AlertCheck {
  constructor(private rules: readonly AlertRule[] = ALERT_RULES) {}

  async run(): Promise<CheckReport> {
    // What this process counted is in the sums it is about to read.
    await signals.flush()
    const report: CheckReport = {
      opened: [],
      resolved: [],
      undecided: [],
      notices: { sent: 0, failed: 0 },
    }
    const context = { thresholds: alertsConfig.thresholds, now: DateTime.now() }
    for (const rule of this.rules) {
      // Read before the rule looks: an incident another check opens while this one evaluates
      // (on what it saw earlier) is not this check's to resolve.
      const open = await incidents.openOf(rule.id)
      let findings: Finding[] | null
      try {
        findings = await rule.evaluate(context)
      } catch (error) {
        logger.warn({ err: error, rule: rule.id }, 'alert rule could not be evaluated')
        findings = null
      }
      if (findings === null) {
        report.undecided.push(rule.id)
        continue
      }
      const seen = new Set<string>()
      for (const finding of findings) {
        seen.add(finding.subject)
        const { incident, opened } = await incidents.raise(rule.id, finding)
        if (!opened) continue
        await alertNotifier.announce(incident, 'opened')
        report.opened.push(summary(incident))
        logger.warn({ alert: rule.id, incident: incident.id }, `alert opened: ${incident.title}`)
      }
      for (const incident of open) {
        if (seen.has(incident.subject)) continue
        const resolved = await incidents.resolve(incident)
        if (!resolved) continue
        await alertNotifier.announce(resolved, 'resolved')
        report.resolved.push(summary(resolved))
        logger.info({ alert: rule.id, incident: resolved.id }, `alert resolved: ${resolved.title}`)
      }
    }
    report.notices = await alertNotifier.deliverDue()
    await signals.prune()
    return report
  }
}

function summary(incident: { id: number; rule: string; subject: string; title: string }) {
  return { id: incident.id, rule: incident.rule, subject: incident.subject, title: incident.title }
}

export const alertCheck = new AlertCheck()
