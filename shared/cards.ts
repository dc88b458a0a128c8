/*
| Card-number rules of the spec, written once: the storefront checks them as the customer types,
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

/** Luhn and not a refused prefix; spaces and dashes are ignored. */
export function isAcceptedCardNumber(raw: string): boolean {
  const digits = raw.replace(/[\s-]/g, '')
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
