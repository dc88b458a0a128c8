import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { AppError } from '#core/exceptions/app_error'
import { clock } from '#core/services/clock'
import { dateFromSql, sqlTime } from '#core/helpers/sql_time'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'

/** Ten failed sign-ins for one e-mail address within 30 minutes lock it for 30 minutes. */
export const LOCK_AFTER_FAILURES = 10
export const LOCK_MS = 30 * 60_000

/** The same words whether or not an account has the address, so a lockout reveals nothing. */
export const LOCKED_MESSAGE =
  'Too many failed sign-ins for this e-mail address. Try again in 30 minutes, or reset your password.'

const keyOf = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex')

/**
 * Failed sign-ins counted per e-mail address (PCI DSS 8.3.4), on the product clock. Kept by the
 * address's hash, for every address tried, so an address without an account locks the same way.
 */
export const signInLockout = {
  /** Refuses (429 `sign_in_locked`) while the address is locked, whatever the password. */
  async assertOpen(email: string) {
    const row = await db.from('sign_in_failures').where('email_hash', keyOf(email)).first()
    const lockedUntil = dateFromSql(row?.locked_until ?? null)
    if (lockedUntil && lockedUntil.getTime() > clock.nowMs()) {
      throw new AppError(LOCKED_MESSAGE, { status: 429, code: 'sign_in_locked' })
    }
  },

  /** Counts a failure; returns true when this one locked the address. */
  async recordFailure(email: string): Promise<boolean> {
    const key = keyOf(email)
    const now = clock.nowMs()
    const windowStart = sqlTime(new Date(now - LOCK_MS))
    // A count older than the window (or one whose lock has ended) starts again at this failure.
    const restarted = await db
      .from('sign_in_failures')
      .where('email_hash', key)
      .where((query) =>
        query
          .where('first_failed_at', '<=', windowStart)
          .orWhere('locked_until', '<=', sqlTime(new Date(now)))
      )
      .update({ failures: 1, first_failed_at: sqlTime(new Date(now)), locked_until: null })
    if (affectedRows(restarted) === 0) {
      const counted = await db
        .from('sign_in_failures')
        .where('email_hash', key)
        .increment('failures', 1)
      if (affectedRows(counted) === 0) {
        try {
          await db.table('sign_in_failures').insert({
            email_hash: key,
            failures: 1,
            first_failed_at: sqlTime(new Date(now)),
          })
        } catch (error) {
          if (!isUniqueViolation(error)) throw error
          await db.from('sign_in_failures').where('email_hash', key).increment('failures', 1)
        }
      }
    }
    const locked = await db
      .from('sign_in_failures')
      .where('email_hash', key)
      .where('failures', '>=', LOCK_AFTER_FAILURES)
      .whereNull('locked_until')
      .update({ locked_until: sqlTime(new Date(now + LOCK_MS)) })
    return affectedRows(locked) === 1
  },

  /** A successful sign-in forgets the address's failures. */
  async clear(email: string) {
    await db.from('sign_in_failures').where('email_hash', keyOf(email)).delete()
  },
}
