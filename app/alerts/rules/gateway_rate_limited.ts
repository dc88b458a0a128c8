import { signals } from '#core/services/signals'
import { defineRule, utcMinute } from '#alerts/rules/rule'

/** The payment gateway answered 429 (slow down), counted by every process. */
export const gatewayRateLimited = defineRule({
  id: 'gateway_rate_limited',
  description: 'The payment gateway answered 429 more often than the threshold in a minute',
  async evaluate({ thresholds }) {
    const { total, since } = await signals.sum('gateway_429', 60_000)
    if (total <= thresholds.gateway429PerMinute) return []
    return [
      {
        subject: '',
        title: `The payment gateway answered 429 ${total} time(s) since ${utcMinute(since)}`,
        detail:
          `Rate-limited answers from the payment gateway (threshold ${thresholds.gateway429PerMinute} ` +
          'a minute). Calls are retried, but release day slows down: check GATEWAY_RATE_PER_SECOND ' +
          "against the account's limit.",
        value: total,
        threshold: thresholds.gateway429PerMinute,
      },
    ]
  },
})
