import { BRANDS } from '@shared/vocabulary'
import { centsOfDollars, formatPrice } from '@shared/pricing'

// Phones: `@shared/phone` (libphonenumber), imported by the pages that take or show one, so its
// metadata stays out of the shop's and the home page's code.

export const isValidEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value.trim())

/** Dollars as the API gives them, shown as the shop shows prices ($50, $8.06). */
export function money(dollars: number): string {
  return formatPrice(centsOfDollars(dollars))
}

export function releaseLabel(iso: string | null): string {
  if (!iso) return 'Date to be announced'
  const date = new Date(iso)
  const past = date.getTime() < Date.now()
  const text = date.toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  })
  return past ? `Released ${text}` : `Releases ${text}`
}

export function brandOf(tags: string): string {
  const first = tags.split(',')[0]?.trim().toLowerCase() ?? ''
  return BRANDS.find((brand) => brand.value === first)?.label ?? first
}

/** Splits "Jordan Rivera" into first and last name on the first space. */
export function splitName(full: string): { firstName: string; lastName: string } {
  const trimmed = full.trim().replace(/\s+/g, ' ')
  const space = trimmed.indexOf(' ')
  if (space < 0) return { firstName: trimmed, lastName: '' }
  return { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1) }
}
