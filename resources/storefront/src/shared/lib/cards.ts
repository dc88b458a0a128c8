/** Card rules of spec sections 5 and 9 (the server checks the same ones again). */
export const REJECTED_CARD_PREFIXES = ['4767', '4859']
export const INVALID_CARD = 'Please enter a valid card.'

export const digitsOnly = (value: string) => value.replace(/\D/g, '')

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
  const digits = raw.replace(/\s/g, '')
  return passesLuhn(digits) && !REJECTED_CARD_PREFIXES.some((prefix) => digits.startsWith(prefix))
}

/** Card number in groups of 4 ("4242 4242 4242 4242"), at most 16 digits. */
export function formatCardNumber(value: string): string {
  return digitsOnly(value)
    .slice(0, 16)
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

/** Splits MM/YY on '/', two-digit years expanded to 20xx. */
export function parseExpiry(value: string): { month: string; year: string } | null {
  const [month = '', year = ''] = value.split('/')
  if (!/^\d{1,2}$/.test(month) || !/^\d{2}(\d{2})?$/.test(year)) return null
  const monthNumber = Number(month)
  if (monthNumber < 1 || monthNumber > 12) return null
  const fullYear = year.length === 2 ? 2000 + Number(year) : Number(year)
  const now = new Date()
  if (
    fullYear < now.getFullYear() ||
    (fullYear === now.getFullYear() && monthNumber < now.getMonth() + 1)
  ) {
    return null
  }
  return { month: String(monthNumber).padStart(2, '0'), year: String(fullYear) }
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

export function cardBrand(number: string): string {
  const digits = digitsOnly(number)
  if (/^4/.test(digits)) return 'visa'
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard'
  if (/^3[47]/.test(digits)) return 'amex'
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover'
  if (/^35/.test(digits)) return 'jcb'
  return 'card'
}

export const BRAND_LABELS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
}
