import { badWebhookSignatures } from '#core/services/metrics'
import { signals } from '#core/services/signals'

/**
 * A webhook delivery refused for its signature (missing, wrong, or outside the time tolerance):
 * counted for Prometheus and for the alert on a burst of them (docs/operations.md).
 */
export function countBadSignature(source: 'stripe' | 'checkout-results') {
  badWebhookSignatures.inc({ source })
  signals.count('bad_signature')
}
