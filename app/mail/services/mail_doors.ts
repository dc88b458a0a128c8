import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { sqlTime } from '#core/helpers/sql_time'
import { affectedRows } from '#core/helpers/db_errors'
import { clock } from '#core/services/clock'
import { mailIntakeConfig } from '#config/mail_intake'

export type Door = 'imap' | 'smtp'

export type DoorState = {
  door: Door
  lastOkAt: string | null
  failingSince: string | null
  lastError: string | null
  /** Failing for MAIL_INTAKE's 5 minutes or more: the dashboard, /health and the alert say so. */
  unreadable: boolean
}

const msOf = (value: unknown) =>
  value instanceof Date
    ? value.getTime()
    : new Date(`${String(value).replace(' ', 'T')}Z`).getTime()
const iso = (value: unknown) => (value ? DateTime.fromMillis(msOf(value)).toUTC().toISO() : null)

/**
 * How the intake's doors are doing, across processes (`mail_intake_state`): the last good read
 * of the mailbox and since when it fails. Errors are kept as the reader's own words, never a
 * message's content or the mailbox's password.
 */
export const mailDoors = {
  async ok(door: Door) {
    await this.write(door, { last_ok_at: sqlTime(), failing_since: null, last_error: null })
  },

  async failed(door: Door, error: unknown) {
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/\/\/[^@/\s]*@/g, '//***@')
      .slice(0, 255)
    const row = await db.from('mail_intake_state').where('door', door).first()
    await this.write(door, {
      failing_since: row?.failing_since ?? sqlTime(),
      last_error: message,
    })
  },

  async write(door: Door, values: Record<string, unknown>) {
    const updated = await db
      .from('mail_intake_state')
      .where('door', door)
      .update({ ...values, updated_at: sqlTime() })
    if (affectedRows(updated) > 0) return
    try {
      await db.table('mail_intake_state').insert({ door, ...values, updated_at: sqlTime() })
    } catch {
      await db
        .from('mail_intake_state')
        .where('door', door)
        .update({ ...values, updated_at: sqlTime() })
    }
  },

  async states(): Promise<DoorState[]> {
    const rows = await db.from('mail_intake_state').orderBy('door')
    const limit = clock.nowMs() - mailIntakeConfig().unreadableMinutes * 60_000
    return rows.map((row) => ({
      door: row.door,
      lastOkAt: iso(row.last_ok_at),
      failingSince: iso(row.failing_since),
      lastError: row.last_error,
      unreadable: Boolean(row.failing_since) && msOf(row.failing_since) <= limit,
    }))
  },

  /** The doors failing for 5 minutes or more (empty: all readable). */
  async unreadable(): Promise<DoorState[]> {
    const states = await this.states()
    return states.filter((state) => state.unreadable)
  },
}
