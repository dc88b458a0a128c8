/*
| Phone numbers as people type and read them, formatted by libphonenumber (its metadata knows
| each country's groups) for the storefront, the console and the server alike.
*/
import { AsYouType } from 'libphonenumber-js'

/** The spec's cap: at most 15 digits (E.164's too). */
export const MAX_PHONE_DIGITS = 15

/** A number typed without its +country code is read in the spec's default country. */
const DEFAULT_COUNTRY = 'US'

const digitsOf = (value: string) => value.replace(/\D/g, '').slice(0, MAX_PHONE_DIGITS)
const isInternational = (value: string) => value.trim().startsWith('+')

/**
 * A phone number as it is shown and typed: an international one as libphonenumber writes it
 * ("+1 212 555 0147"), a national one in its country's groups joined by dashes, as the sign-up
 * form always showed them ("212-555-0147").
 */
export function formatPhone(value: string): string {
  const digits = digitsOf(value)
  if (isInternational(value)) return digits ? new AsYouType().input(`+${digits}`) : '+'
  if (!digits) return ''
  return new AsYouType(DEFAULT_COUNTRY).input(digits).match(/\d+/g)?.join('-') ?? digits
}

/** What is sent and kept: the digits, after the + of an international number. */
export function phoneForServer(value: string): string {
  const digits = digitsOf(value)
  return isInternational(value) && digits ? `+${digits}` : digits
}

/** A mobile number: 7 to 15 digits. */
export function isValidPhone(value: string): boolean {
  return /^\d{7,15}$/.test(value.replace(/\D/g, ''))
}
