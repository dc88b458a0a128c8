import { createHmac, timingSafeEqual } from 'node:crypto'

/*
| The sandbox's 3-D Secure stand-in page is opened by a redirect, so it cannot see the customer's
| bearer token. Its address carries a pass instead: signed (HMAC-SHA256 with this install's key),
| short-lived, and bound to the one card setup or payment and to the customer at the gateway who
| owns it. Only the customer is ever handed it (in the answer of their own billing/set,
| confirmCard or hold/authenticate call); another customer's pass, an old one or none is refused.
*/

/** How long a challenge link works after it was handed out (a new one comes with each ask). */
export const CHALLENGE_PASS_TTL_MS = 30 * 60 * 1000

/**
 * Keyed by this install's sandbox secret (SANDBOX_WEBHOOK_SECRET, random per install and
 * refused in production when weak), under a purpose of its own so a pass is never a webhook
 * signature or the other way round.
 */
function mac(sandboxSecret: string, id: string, customerId: string, expires: number) {
  const key = createHmac('sha256', sandboxSecret).update('dropslot:sandbox-3ds-pass').digest()
  return createHmac('sha256', key).update(`${id}:${customerId}:${expires}`).digest()
}

/** `<expiry, unix seconds>.<hex HMAC>` for this challenge and customer, valid from `nowMs`. */
export function signChallengePass(key: string, id: string, customerId: string, nowMs: number) {
  const expires = Math.floor((nowMs + CHALLENGE_PASS_TTL_MS) / 1000)
  return `${expires}.${mac(key, id, customerId, expires).toString('hex')}`
}

/** True for a pass of this challenge and its customer that has not expired at `nowMs`. */
export function verifyChallengePass(
  key: string,
  pass: unknown,
  id: string,
  customerId: string,
  nowMs: number
): boolean {
  if (typeof pass !== 'string' || pass.length > 100) return false
  const match = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(pass)
  if (!match) return false
  const expires = Number(match[1])
  if (expires * 1000 < nowMs) return false
  return timingSafeEqual(mac(key, id, customerId, expires), Buffer.from(match[2], 'hex'))
}
