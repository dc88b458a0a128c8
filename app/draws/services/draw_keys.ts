import { createHash, createHmac } from 'node:crypto'
import env from '#start/env'

/*
| What makes two entries the same person's, without keeping anything that identifies them: a
| keyed hash (HMAC-SHA256 under a key derived from APP_KEY) of the card number's digits, and of
| the shipping address normalized (case, spaces and punctuation folded). The card number itself
| is never stored, logged or compared in the clear.
*/

let key: Buffer | null = null
function derivedKey() {
  key ??= createHmac('sha256', env.get('APP_KEY')).update('dropslot:draw-entry-keys').digest()
  return key
}

function keyed(kind: string, value: string) {
  return createHmac('sha256', derivedKey()).update(`${kind}:${value}`).digest('hex')
}

export function cardFingerprint(cardNumber: string): string {
  return keyed('card', cardNumber.replace(/\D/g, ''))
}

/** Street (both lines), zip and country: "12 Main St., Apt 4" and "12 main st apt 4" match. */
export function addressKey(address: {
  address1: string
  address2?: string | null
  zip: string
  country?: string | null
}): string {
  const fold = (value: string | null | undefined) =>
    (value ?? '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
  const street = [fold(address.address1), fold(address.address2)].filter(Boolean).join(' ')
  return keyed('address', `${street}|${fold(address.zip)}|${fold(address.country)}`)
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** A draw's score of one entry (shared/draw.ts): HMAC-SHA256 keyed by the published seed. */
export function drawHmac(seed: string, entryId: string): string {
  return createHmac('sha256', seed).update(entryId).digest('hex')
}
