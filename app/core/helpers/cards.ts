/** Card-number rules shared by profiles and card-on-file; the rules themselves are `#shared/cards`. */
import { isAcceptedCardNumber } from '#shared/cards'

export {
  detectCardBrand,
  INVALID_CARD,
  isAcceptedCardNumber,
  passesLuhn,
  REJECTED_CARD_PREFIXES,
} from '#shared/cards'

export function normalizeCardNumber(value: string): string {
  return value.replace(/[\s-]/g, '')
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
