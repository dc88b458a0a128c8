/** Card rules of spec sections 5 and 9, as the customer types (the server checks them again). */
import { isAcceptedCardNumber, parseCardExpiry } from '@shared/cards'

export { INVALID_CARD } from '@shared/cards'

export const digitsOnly = (value: string) => value.replace(/\D/g, '')

/** The most digits a card field keeps: more than any card has, so nothing typed is cut short. */
const MAX_CARD_DIGITS = 24

/**
 * Card number as typed or pasted (spaces, dashes, dots) in groups of 4 ("4242 4242 4242 4242").
 * Every digit is kept (up to MAX_CARD_DIGITS): a number too long is refused by the check, never
 * cut to a shorter one the customer did not type.
 */
export function formatCardNumber(value: string): string {
  return digitsOnly(value)
    .slice(0, MAX_CARD_DIGITS)
    .replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** MM/YY with the slash added after two digits (and removed again when deleting past it). */
export function formatExpiry(value: string, previous = ''): string {
  const digits = digitsOnly(value).slice(0, 4)
  const deleting = value.length < previous.length
  if (digits.length < 2) return digits
  if (digits.length === 2) return deleting ? digits : `${digits}/`
  return `${digits.slice(0, 2)}/${digits.slice(2)}`
}

/**
 * Splits MM/YY on '/', two-digit years expanded to 20xx; null when it is not a month or the card
 * has expired (the server's rule, `@shared/cards`: valid through its month's last day in UTC).
 */
export function parseExpiry(value: string): { month: string; year: string } | null {
  return parseCardExpiry(value, Date.now())
}

export const isValidCvv = (value: string) => /^\d{3,4}$/.test(value)

export type CardFields = { number: string; expiry: string; cvv: string }

/** The whole card form: number (Luhn, rejected prefixes), expiry, CVV 3 or 4 digits. */
export function validateCard(fields: CardFields) {
  const number = fields.number.replace(/\s/g, '')
  const expiry = parseExpiry(fields.expiry)
  if (!number || !isAcceptedCardNumber(number) || !expiry || !isValidCvv(fields.cvv)) return null
  return { number, month: expiry.month, year: expiry.year, code: fields.cvv }
}

export { CARD_BRAND_LABELS as BRAND_LABELS } from '@shared/vocabulary'
