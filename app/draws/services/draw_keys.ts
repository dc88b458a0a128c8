import { createHmac } from 'node:crypto'
import drawsConfig from '#config/draws'
import { addressNormalForm } from '#draws/services/address_normal_form'

/*
| What makes two entries (or two places in a line) the same person's, without keeping anything
| that identifies them: keyed hashes (HMAC-SHA256 under DRAW_FINGERPRINT_KEY, its own secret) of
| the gateway's fingerprint of the card that is actually checked (Stripe's `card.fingerprint`:
| the same card number gives the same fingerprint whatever is typed in a profile), and of the
| address in its postal normal form (`address_normal_form.ts`).
*/

function keyed(kind: string, value: string) {
  return createHmac('sha256', drawsConfig.fingerprintKey).update(`${kind}:${value}`).digest('hex')
}

/** The key of a card: from the gateway's fingerprint of it, never from a typed number. */
export function cardKey(gatewayFingerprint: string): string {
  return keyed('card', gatewayFingerprint)
}

/** The key of an address: "1 Main Street Apt 4" and "1 main st #4" have the same one. */
export function addressKey(address: {
  address1: string
  address2?: string | null
  zip: string
  country?: string | null
}): string {
  return keyed('address', addressNormalForm(address))
}
