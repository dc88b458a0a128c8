import { clock } from '#core/services/clock'
import { productQueries } from '#catalog/services/product_queries'
import { beaconWaits, type BeaconWait } from '#draws/services/beacon_waits'
import { defineRule, utcMinute } from '#alerts/rules/rule'

/** What the operator can do about it (a draw can also be run on a copy of its round). */
function remedy(wait: BeaconWait) {
  const check =
    'Check DRAND_URLS and that this server reaches those relays over HTTPS (DNS, firewall, ' +
    'proxy); it goes on by itself the minute a relay gives the round.'
  return wait.kind === 'draw'
    ? `${check} Or run it on a copy of that round: \`dropslot draw:run --product ` +
        `${wait.productId} --beacon FILE\` (refused unless its signature verifies).`
    : check
}

/**
 * A draw or a waiting room's line whose committed quicknet round has been due for
 * ALERT_BEACON_UNAVAILABLE_MINUTES and that no relay gave yet: winners are not drawn (or places
 * not given) and customers see the result delayed. Only when the round is fetched can slip,
 * never which round (shared/beacon_rule.ts). One incident per draw or line; it resolves when
 * the round is fetched.
 */
export const beaconUnavailable = defineRule({
  id: 'beacon_unavailable',
  description: 'A due beacon round could not be fetched for 5 minutes',
  async evaluate({ thresholds }) {
    const limitMs = thresholds.beaconUnavailableMinutes * 60_000
    const waits = await beaconWaits.all()
    const late = waits.filter((wait) => clock.nowMs() - wait.dueAt.getTime() >= limitMs)
    const findings = []
    for (const wait of late) {
      const minutes = Math.floor((clock.nowMs() - wait.dueAt.getTime()) / 60_000)
      const product = await productQueries.find(wait.productId)
      const name = `product ${wait.productId}${product ? ` "${product.title}"` : ''}`
      const what =
        wait.kind === 'draw'
          ? `The draw of ${name} cannot pick its winners`
          : `The waiting room of ${name} cannot give places`
      findings.push({
        subject: `${wait.kind}:${wait.productId}`,
        title: `Beacon round ${wait.round} unavailable for ${minutes} minutes (${wait.kind} of product ${wait.productId})`,
        detail:
          `${what}: it waits for drand quicknet round ${wait.round}, due at ` +
          `${wait.dueAt.toISOString()}, and no relay has given it (last try ` +
          `${wait.lastTriedAt ? utcMinute(wait.lastTriedAt) : 'unknown'}: ${wait.lastError}). ` +
          'Customers see the result delayed; nothing else changes, and no other round can be ' +
          `used. ${remedy(wait)}`,
        value: minutes,
        threshold: thresholds.beaconUnavailableMinutes,
      })
    }
    return findings
  },
})
