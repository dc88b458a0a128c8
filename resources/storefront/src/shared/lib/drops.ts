import type { Product } from '@shared/api/contract'
import { slotsLeft } from '@shared/vocabulary'

/** Where a drop stands for a visitor right now. */
export type DropState = 'open' | 'upcoming' | 'sold-out' | 'closed' | 'released'

export const DROP_STATE_LABELS: Record<DropState, string> = {
  'open': 'Open',
  'upcoming': 'Upcoming',
  'sold-out': 'Sold out',
  'closed': 'Entries closed',
  'released': 'Released',
}

const time = (iso: string | null | undefined) => (iso ? new Date(iso).getTime() : null)

export function dropState(product: Product, now: number): DropState {
  const releaseAt = time(product.releaseAt)
  if (releaseAt !== null && releaseAt <= now) return 'released'
  if (product.mode === 'draw') {
    const opens = time(product.entryOpensAt)
    const closes = time(product.entryClosesAt)
    if (closes !== null && closes <= now) return 'closed'
    return opens !== null && opens > now ? 'upcoming' : 'open'
  }
  if (slotsLeft(product) === 0) return 'sold-out'
  const saleOpens = time(product.queue?.opensAt)
  return saleOpens !== null && saleOpens > now ? 'upcoming' : 'open'
}

/**
 * Drops first: what can be bought or entered, and what is coming, soonest release first; then
 * sold out and closed; released ones last, the most recent first. `now` is the page's one clock
 * (`useNow`), the same the cards are drawn with, so a card's state and its place agree.
 */
export function sortDrops(products: Product[], now: number): Product[] {
  const group = (product: Product) => {
    const state = dropState(product, now)
    return state === 'open' || state === 'upcoming' ? 0 : state === 'released' ? 2 : 1
  }
  const release = (product: Product) => time(product.releaseAt) ?? Number.MAX_SAFE_INTEGER
  return [...products].sort((a, b) => {
    const byGroup = group(a) - group(b)
    if (byGroup !== 0) return byGroup
    const byRelease = group(a) === 2 ? release(b) - release(a) : release(a) - release(b)
    return byRelease !== 0 ? byRelease : a.productId - b.productId
  })
}

/** "2d 04:12:09" until the target, or null once it has passed. */
export function countdown(targetIso: string | null, now: number): string | null {
  const target = time(targetIso)
  if (target === null || target <= now) return null
  const seconds = Math.floor((target - now) / 1000)
  const days = Math.floor(seconds / 86_400)
  const clock = [
    Math.floor((seconds % 86_400) / 3600),
    Math.floor((seconds % 3600) / 60),
    seconds % 60,
  ]
    .map((part) => String(part).padStart(2, '0'))
    .join(':')
  return days > 0 ? `${days}d ${clock}` : clock
}

/** The release time in the visitor's zone, and in the release's own zone, each named. */
export function releaseTimes(product: Pick<Product, 'releaseAt' | 'releaseTimeZone'>) {
  if (!product.releaseAt) return null
  const date = new Date(product.releaseAt)
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }
  const zone = product.releaseTimeZone ?? 'America/New_York'
  const city = zone.split('/').pop()!.replace(/_/g, ' ')
  return {
    local: date.toLocaleString('en-US', options),
    release: `${date.toLocaleString('en-US', { ...options, timeZone: zone })} (${city})`,
  }
}
