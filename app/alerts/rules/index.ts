import type { AlertRule } from '#alerts/rules/rule'
import { releaseRunFailed } from '#alerts/rules/release_run_failed'
import { queueBacklog } from '#alerts/rules/queue_backlog'
import { failedJobs } from '#alerts/rules/failed_jobs'
import { waitingWithoutHold } from '#alerts/rules/waiting_without_hold'
import { holdsLapsing } from '#alerts/rules/holds_lapsing'
import { gatewayRateLimited } from '#alerts/rules/gateway_rate_limited'
import { badWebhookSignatures } from '#alerts/rules/bad_webhook_signatures'
import { serverErrors } from '#alerts/rules/server_errors'
import { mailUnreadable } from '#alerts/rules/mail_unreadable'
import { beaconUnavailable } from '#alerts/rules/beacon_unavailable'

/**
 * Every alert rule the check evaluates, in this order. A new rule is one file in this folder
 * (`defineRule`) and one entry here; its threshold goes in config/alerts.ts.
 */
export const ALERT_RULES: readonly AlertRule[] = [
  releaseRunFailed,
  queueBacklog,
  failedJobs,
  waitingWithoutHold,
  holdsLapsing,
  gatewayRateLimited,
  badWebhookSignatures,
  serverErrors,
  mailUnreadable,
  beaconUnavailable,
]
