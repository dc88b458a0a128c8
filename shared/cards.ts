/*
| Card rules of the spec (number, expiry), written once: the storefront checks them as the customer types,
| the server checks them again before anything is kept. Pure functions; nothing imported.
*/

export const REJECTED_CARD_PREFIXES = ['4767', '4859']

/** The spec's one message for any card that fails a check. */
export const INVALID_CARD = 'Please enter a valid card.'

export function passesLuhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  let double = false
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48
    if (double) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
    double = !double
  }
  return sum % 10 === 0
}

/**
 * The lengths each brand issues (ISO/IEC 7812 and the networks' rules): a Mastercard number is
 * 16 digits, so a 13-digit "Mastercard" that passes Luhn is a number cut short, not a card.
 */
const BRAND_LENGTHS: Record<string, readonly number[]> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  discover: [16, 17, 18, 19],
  jcb: [16, 17, 18, 19],
  diners: [14, 15, 16, 17, 18, 19],
}

/** Luhn, a length the brand issues and not a refused prefix; spaces and dashes are ignored. */
export function isAcceptedCardNumber(raw: string): boolean {
  const digits = raw.replace(/[\s-]/g, '')
  const lengths = BRAND_LENGTHS[detectCardBrand(digits)]
  return (
    passesLuhn(digits) &&
    (!lengths || lengths.includes(digits.length)) &&
    !REJECTED_CARD_PREFIXES.some((prefix) => digits.startsWith(prefix))
  )
}

export function detectCardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa'
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard'
  if (/^3[47]/.test(digits)) return 'amex'
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover'
  if (/^35(2[89]|[3-8])/.test(digits)) return 'jcb'
  if (/^3(0[0-5]|[689])/.test(digits)) return 'diners'
  return 'unknown'
}

/** Two-digit years are 20xx, as the spec's card form expands them. */
export function expandCardYear(year: string | number): number {
  const value = Number(year)
  return value < 100 ? 2000 + value : value
}

/**
 * The expiry rule, one for the server and the browser: a card is valid through the last day of
 * its expiry month in UTC, and expired from the first instant (UTC) of the month after. The
 * customer's time zone never matters: at 23:30 on Dec 31 in New York (04:30 UTC on Jan 1) a card
 * ending 12/30 has expired everywhere.
 */
export function isCardExpired(month: number, year: number, now: Date | number): boolean {
  const at = typeof now === 'number' ? new Date(now) : now
  const currentYear = at.getUTCFullYear()
  const currentMonth = at.getUTCMonth() + 1
  return year < currentYear || (year === currentYear && month < currentMonth)
}

/**
 * `MM/YY` (or `MM/YYYY`) as the card form takes it: month and four-digit year, or null when it
 * is malformed, not a month, or expired at `now` (the rule above).
 */
export function parseCardExpiry(
  value: string,
  now: Date | number
): { month: string; year: string } | null {
  const [month = '', year = ''] = value.split('/')
  if (!/^\d{1,2}$/.test(month) || !/^\d{2}(\d{2})?$/.test(year)) return null
  const monthNumber = Number(month)
  if (monthNumber < 1 || monthNumber > 12) return null
  const fullYear = expandCardYear(year)
  if (isCardExpired(monthNumber, fullYear, now)) return null
  return { month: String(monthNumber).padStart(2, '0'), year: String(fullYear) }
}
