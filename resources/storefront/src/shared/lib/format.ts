import { BRANDS } from '@shared/vocabulary'
import { centsOfDollars, formatPrice } from '@shared/pricing'
import { digitsOnly } from './cards'

export const MAX_PHONE_DIGITS = 15

/** Phone with dashes auto-inserted (555-123-4567, longer numbers keep going in groups of 4). */
export function formatPhone(value: string): string {
  const digits = digitsOnly(value).slice(0, MAX_PHONE_DIGITS)
  const parts = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6, 10), digits.slice(10)]
  return parts.filter(Boolean).join('-')
}

export const stripPhone = (value: string) => digitsOnly(value)

/** A mobile number: 7 to 15 digits. */
export const isValidPhone = (value: string) => /^\d{7,15}$/.test(digitsOnly(value))

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
