/** Card-number rules shared by profiles and card-on-file; the rules themselves are `#shared/cards`. */
import { expandCardYear, isAcceptedCardNumber, isCardExpired } from '#shared/cards'
import { clock } from '#core/services/clock'

export { detectCardBrand, INVALID_CARD, isAcceptedCardNumber, passesLuhn } from '#shared/cards'

export function normalizeCardNumber(value: string): string {
  return value.replace(/[\s-]/g, '')
}

/** Two-digit years are 20xx, as the spec's card form expands them. */
export const expandYear = expandCardYear

/**
 * Everything a card must pass before we keep it: Luhn, not a refused prefix, a real month, a
 * year (two digits mean 20xx) and not expired on the product's clock (`isCardExpired`: valid
 * through the last day of its month, in UTC). Month and year come raw from the client.
 */
export function isUsableCard(
  number: unknown,
  month: unknown,
  year: unknown,
  now: Date = clock.now()
): boolean {
  if (typeof number !== 'string') return false
  const monthNumber = Number(String(month ?? '').trim())
  const yearNumber = expandYear(String(year ?? '').trim())
  return (
    isAcceptedCardNumber(number) &&
    Number.isInteger(monthNumber) &&
    monthNumber >= 1 &&
    monthNumber <= 12 &&
    Number.isInteger(yearNumber) &&
    !isCardExpired(monthNumber, yearNumber, now)
  )
}
