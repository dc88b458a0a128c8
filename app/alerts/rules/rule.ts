import type { DateTime } from 'luxon'
import type { AlertsConfig } from '#config/alerts'

/** What a rule found wrong now: one incident per rule and subject while it lasts. */
export type Finding = {
  /** What within the rule it is about (a queue's name), '' when the rule has one subject. */
  subject: string
  /** One line, for the webhook message, the e-mail subject and the console's list. */
  title: string
  /** What was seen and what to look at. */
  detail: string
  value: number
  threshold: number
}

export type RuleContext = {
  thresholds: AlertsConfig['thresholds']
  /** The product's clock (tests move it). */
  now: DateTime
}

/**
 * An alert rule: its id is stored on its incidents; `evaluate` answers what is wrong now (an
 * empty list: nothing, so open incidents of the rule resolve) or null when it cannot tell (its
 * data could not be read, or a run is still going): open incidents then stay as they are.
 *
 * Adding a rule: one file in app/alerts/rules/ exporting `defineRule({...})`, and its name in
 * the list of app/alerts/rules/index.ts (with its threshold in config/alerts.ts if it has one).
 */
export type AlertRule = {
  id: string
  description: string
  evaluate(context: RuleContext): Promise<Finding[] | null>
}

export function defineRule(rule: AlertRule): AlertRule {
  return rule
}

/** "14:03 UTC", for the windows of the counted rules. */
export function utcMinute(date: Date) {
  return `${date.toISOString().slice(11, 16)} UTC`
}
