/*
| The price rules, written once for the server's charge, the storefront's display, the console and
| the e-mails: money is integer cents, and a promo code takes its percent off the service fee,
| rounded to the nearest cent (a half cent up). Integer arithmetic only: no float ever decides a
| cent. Pure functions; nothing imported.
*/

/** Percent values a promo code may carry (0: no discount). */
export const MAX_PROMO_PERCENT = 100

/**
 * The service fee after a promo code of `percent` % (0-100; none or 0: the full price), in
 * integer cents: `priceCents * (100 - percent) / 100`, rounded half up. $8.95 at 10 % is $8.06.
 */
export function priceAfterPromo(priceCents: number, percent?: number | null): number {
  if (!Number.isSafeInteger(priceCents) || priceCents < 0) {
    throw new RangeError('A price is a whole, non-negative number of cents.')
  }
  const off = percent ?? 0
  if (!Number.isInteger(off) || off < 0 || off > MAX_PROMO_PERCENT) {
    throw new RangeError('A promo percent is a whole number from 0 to 100.')
  }
  const scaled = priceCents * (MAX_PROMO_PERCENT - off) + 50
  return (scaled - (scaled % 100)) / 100
}

/**
 * Dollars as the API shows them (a number with at most two decimals) back to integer cents.
 * `Math.round` of the scaled value is exact for every amount up to millions of dollars.
 */
export function centsOfDollars(dollars: number): number {
  return Math.round(dollars * 100)
}

/** `$8.06`, `$4,990.00`: cents as dollars with two decimals and thousands separators. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const value = Math.abs(Math.trunc(cents))
  const whole = String((value - (value % 100)) / 100).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${sign}$${whole}.${String(value % 100).padStart(2, '0')}`
}

/** The storefront's way: whole dollars without cents (`$50`), the rest as `formatCents`. */
export function formatPrice(cents: number): string {
  const text = formatCents(cents)
  return text.endsWith('.00') ? text.slice(0, -3) : text
}
