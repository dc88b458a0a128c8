import { gatewayRateLimited } from '#core/services/metrics'
import { signals } from '#core/services/signals'

/**
 * The gateway answered 429 (slow down): counted for Prometheus and for the alert on the
 * gateway's 429s, across processes (docs/operations.md).
 */
export function countRateLimited(gateway: 'sandbox' | 'stripe') {
  gatewayRateLimited.inc({ gateway })
  signals.count('gateway_429')
}
