import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'
import paymentsConfig from '#config/payments'

/*
| The short confirmation number a customer reads (`DS-7K3Q9X`), made from the order's id by a
| keyed permutation: unique because the id is (two orders can never share a number, no column or
| index needed), not sequential to the eye (a customer cannot count our orders), and reversible
| for support. The key is this install's INSTALLATION_ID, which never changes once used, so a
| number never changes either. Crockford's base32: no I, L, O or U to misread.
*/

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const HALF_BITS = 15
const HALF_MASK = (1 << HALF_BITS) - 1
const ROUNDS = 4
/** Six characters: 30 bits, a billion orders before a number grows a seventh character. */
const DOMAIN = 2 ** (2 * HALF_BITS)

// Each round's key is a number whose decimal digits key the round's HMAC; kept as a key object,
// made once (a key given as text is imported again by every HMAC, half of its CPU).
let keys: KeyObject[] | null = null
function roundKeys() {
  keys ??= Array.from({ length: ROUNDS }, (_, round) => {
    const key = createHmac('sha256', `dropslot:order-number:${paymentsConfig.installationId}`)
      .update(String(round))
      .digest()
      .readUInt32BE(0)
    return createSecretKey(Buffer.from(String(key), 'utf8'))
  })
  return keys
}

function roundFunction(half: number, key: KeyObject) {
  return createHmac('sha256', key).update(String(half)).digest().readUInt16BE(0) & HALF_MASK
}

function permute(value: number, inverse: boolean) {
  let left = Math.floor(value / (HALF_MASK + 1))
  let right = value & HALF_MASK
  const order = inverse ? [...roundKeys()].reverse() : roundKeys()
  for (const key of order) {
    if (inverse) [left, right] = [right ^ roundFunction(left, key), left]
    else [left, right] = [right, left ^ roundFunction(right, key)]
  }
  return left * (HALF_MASK + 1) + right
}

function encode(value: number, length: number) {
  let text = ''
  for (let index = 0; index < length; index++) {
    text = ALPHABET[value % 32] + text
    value = Math.floor(value / 32)
  }
  return text
}

/**
 * The numbers made last, by order id: a checkout writes its order's number into the receipt and
 * then into its answer, and four keyed hashes per number were a visible part of its CPU. Kept
 * for the last RECENT_NUMBERS orders (oldest dropped first), enough for every checkout in flight.
 */
const RECENT_NUMBERS = 256
const recent = new Map<number, string>()

/** The order's confirmation number, e.g. `DS-7K3Q9X`. */
export function orderNumber(orderId: number): string {
  const known = recent.get(orderId)
  if (known !== undefined) return known
  const number =
    orderId >= DOMAIN ? `DS-${encode(orderId, 8)}` : `DS-${encode(permute(orderId, false), 6)}`
  if (recent.size >= RECENT_NUMBERS) recent.delete(recent.keys().next().value!)
  recent.set(orderId, number)
  return number
}

/** The order id behind a confirmation number (any case, with or without `DS-`), or null. */
export function orderIdOfNumber(number: string): number | null {
  const code = number.trim().toUpperCase().replace(/^DS-?/, '')
  if (!/^[0-9A-HJKMNP-TV-Z]{6}(?:[0-9A-HJKMNP-TV-Z]{2})?$/.test(code)) return null
  let value = 0
  for (const char of code) value = value * 32 + ALPHABET.indexOf(char)
  if (code.length === 6) return permute(value, true)
  // Eight characters are the id itself, written only for ids past the six-character domain.
  return value >= DOMAIN ? value : null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * What a person may name an order by: its public id (UUID) or its confirmation number (any
 * case, with or without `DS-`). `label` is how an answer writes it back.
 */
export function parseOrderReference(
  reference: unknown
): { publicId: string; label: string } | { id: number; label: string } | null {
  if (typeof reference !== 'string' || reference.length > 64) return null
  const text = reference.trim()
  if (UUID.test(text)) return { publicId: text.toLowerCase(), label: text.toLowerCase() }
  const id = orderIdOfNumber(text)
  if (id === null) return null
  return { id, label: `DS-${text.toUpperCase().replace(/^DS-?/, '')}` }
}

/**
 * Route matcher for an order in a URL: its public id or its confirmation number, `DS-` required
 * there (any case), so a static path beside an order route is never read as a number.
 */
export const orderReferenceMatcher = {
  match:
    /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|DS-[0-9A-HJKMNP-TV-Z]{6}(?:[0-9A-HJKMNP-TV-Z]{2})?)$/i,
}
