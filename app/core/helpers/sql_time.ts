import { DateTime } from 'luxon'
import { clock } from '#core/services/clock'

/** How timestamps are written and compared in SQL on both dialects (Lucid's own format). */
export const SQL_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss'

/**
 * A time (now by default) as SQL compares it. Every entrypoint runs in UTC (`TZ` is set first
 * thing in bin/server.ts, bin/console.ts, bin/test.ts and cli/app.ts).
 */
export function sqlTime(value: DateTime | Date = clock.now()): string {
  // A Date (now, by default) skips luxon's formatter: the checkout writes several per order.
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ')
  return value.toFormat(SQL_TIME_FORMAT)
}

/** Seconds from a time read back from SQL (a Date or `yyyy-MM-dd HH:mm:ss` UTC) to now. */
export function secondsSince(value: unknown): number | null {
  if (!value) return null
  const at = value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)
  if (Number.isNaN(at.getTime())) return null
  return Math.max(0, Math.round((clock.nowMs() - at.getTime()) / 1000))
}
