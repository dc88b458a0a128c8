import { signals } from '#core/services/signals'
import { defineRule, utcMinute } from '#alerts/rules/rule'

/** A burst of webhook deliveries with a bad signature (Stripe's, or the bots' results). */
export const badWebhookSignatures = defineRule({
  id: 'bad_webhook_signatures',
  description: 'A burst of webhook deliveries refused for their signature',
  async evaluate({ thresholds }) {
    const { total, since } = await signals.sum('bad_signature', 60_000)
    if (total < thresholds.badSignaturesPerMinute) return []
    return [
      {
        subject: '',
        title: `${total} webhook deliveries with a bad signature since ${utcMinute(since)}`,
        detail:
          `Deliveries to /api/hooks/stripe or /api/hooks/checkout-results refused for their ` +
          `signature (threshold ${thresholds.badSignaturesPerMinute} a minute): a rotated ` +
          'secret not updated here, a clock off by minutes, or someone probing the endpoints.',
        value: total,
        threshold: thresholds.badSignaturesPerMinute,
      },
    ]
  },
})
