/** Card-number rules shared by profiles, card-on-file and the storefront contract. */
export const REJECTED_CARD_PREFIXES = ['4767', '4859']

/** The spec's one message for any card that fails a check. */
export const INVALID_CARD = 'Please enter a valid card.'

export function normalizeCardNumber(value: string): string {
  return value.replace(/[\s-]/g, '')
}

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

export function isAcceptedCardNumber(raw: string): boolean {
  const digits = normalizeCardNumber(raw)
  return passesLuhn(digits) && !REJECTED_CARD_PREFIXES.some((prefix) => digits.startsWith(prefix))
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
export function expandYear(year: string | number): number {
  const value = Number(year)
  return value < 100 ? 2000 + value : value
}

export function isExpired(month: number, year: number, now = new Date()): boolean {
  const currentYear = now.getUTCFullYear()
  const currentMonth = now.getUTCMonth() + 1
  return year < currentYear || (year === currentYear && month < currentMonth)
}

/**
 * Everything a card must pass before we keep it: Luhn, not a refused prefix, a real month, a
 * year (two digits mean 20xx) and not expired. Month and year come raw from the client.
 */
export function isUsableCard(number: unknown, month: unknown, year: unknown): boolean {
  if (typeof number !== 'string') return false
  const monthNumber = Number(String(month ?? '').trim())
  const yearNumber = expandYear(String(year ?? '').trim())
  return (
    isAcceptedCardNumber(number) &&
    Number.isInteger(monthNumber) &&
    monthNumber >= 1 &&
    monthNumber <= 12 &&
    Number.isInteger(yearNumber) &&
    !isExpired(monthNumber, yearNumber)
  )
}
