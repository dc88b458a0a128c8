import db from '@adonisjs/lucid/services/db'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'

/**
 * The tries of an order's round, one per retailer (`release_tries`, migration 0965):
 * `sending` until the engine took its task, `sent` while the bot works on it, then `failed`,
 * `won` (the one success charged), `cancelled` (another try won first, or the order ended),
 * `extra_success` (a success after the order was already won: flagged, never charged) or
 * `over_cap` (a success whose total was above the buyer's cap: not charged, for review).
 */
export type TryStatus =
  'sending' | 'sent' | 'failed' | 'won' | 'cancelled' | 'extra_success' | 'over_cap'

export type TryRow = {
  id: number
  order_id: number
  round_number: number
  retailer: string
  position: number
  status: TryStatus
  size: string | null
  confirmation_number: string | null
  reason: string | null
  reason_code: string | null
}

/** Tries still waiting for an answer. */
export const OPEN_TRY_STATUSES: TryStatus[] = ['sending', 'sent']

class ReleaseTries {
  /** The round's tries in order, created for `retailers` when missing. */
  async ensure(orderId: number, round: number, retailers: readonly string[]): Promise<TryRow[]> {
    const existing = await this.forRound(orderId, round)
    for (const [position, retailer] of retailers.entries()) {
      if (existing.some((row) => row.retailer === retailer)) continue
      try {
        await db.table('release_tries').insert({
          order_id: orderId,
          round_number: round,
          retailer,
          position,
          status: 'sending',
          created_at: sqlTime(),
          updated_at: sqlTime(),
        })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
    }
    return this.forRound(orderId, round)
  }

  async forRound(orderId: number, round: number): Promise<TryRow[]> {
    const rows = await db
      .from('release_tries')
      .where('order_id', orderId)
      .where('round_number', round)
      .orderBy('position', 'asc')
    return rows.map((row) => ({
      ...row,
      round_number: Number(row.round_number),
      position: Number(row.position),
    }))
  }

  /** The retailers an order's current round was sent to, in order (empty: it has no tries). */
  async sentTo(orderId: number): Promise<string[]> {
    const rows = await db
      .from('release_tries')
      .where('order_id', orderId)
      .where(
        'round_number',
        db.from('release_tries').where('order_id', orderId).max('round_number')
      )
      .whereNot('status', 'sending')
      .orderBy('position', 'asc')
      .select('retailer')
    return rows.map((row) => String(row.retailer))
  }

  /** Moves one try from `from` to `to` with the given details; true for the caller that did. */
  async move(
    target: { orderId: number; round: number; retailer: string },
    from: TryStatus[],
    to: TryStatus,
    details: Partial<Pick<TryRow, 'size' | 'confirmation_number' | 'reason' | 'reason_code'>> = {}
  ): Promise<boolean> {
    const changed = await db
      .from('release_tries')
      .where('order_id', target.orderId)
      .where('round_number', target.round)
      .where('retailer', target.retailer)
      .whereIn('status', from)
      .update({ status: to, ...details, updated_at: sqlTime() })
    return affectedRows(changed) === 1
  }

  /** Every try of the round still open, except `retailer`, is cancelled; the ones it cancelled. */
  async cancelOpen(orderId: number, round: number, exceptRetailer: string | null) {
    const tries = await this.forRound(orderId, round)
    const open = tries.filter(
      (row) => OPEN_TRY_STATUSES.includes(row.status) && row.retailer !== exceptRetailer
    )
    const cancelled: TryRow[] = []
    for (const row of open) {
      const moved = await this.move(
        { orderId, round, retailer: row.retailer },
        OPEN_TRY_STATUSES,
        'cancelled'
      )
      if (moved) cancelled.push(row)
    }
    return cancelled
  }
}

export const releaseTries = new ReleaseTries()
