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

/**
 * A time read back from SQL as a Date, whatever the driver made of it: a Date (MySQL), epoch
 * milliseconds (knex's SQLite writes of a Date) or `yyyy-MM-dd HH:mm:ss` UTC text (SQLite rows
 * written with `sqlTime`); null when absent or unreadable.
 */
export function dateFromSql(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null
  const at =
    value instanceof Date
      ? value
      : typeof value === 'number'
        ? new Date(value)
        : new Date(
            `${String(value).replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(String(value)) ? '' : 'Z'}`
          )
  return Number.isNaN(at.getTime()) ? null : at
}

/** Seconds from a time read back from SQL (a Date or `yyyy-MM-dd HH:mm:ss` UTC) to now. */
export function secondsSince(value: unknown): number | null {
  const at = dateFromSql(value)
  if (!at) return null
  return Math.max(0, Math.round((clock.nowMs() - at.getTime()) / 1000))
}
