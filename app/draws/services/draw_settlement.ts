import db from '@adonisjs/lucid/services/db'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { jobs } from '#core/jobs/jobs'
import type { ProductRecord } from '#catalog/services/product_queries'
import { slotStock } from '#catalog/services/slot_stock'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderQueries } from '#orders/services/order_queries'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderEmails } from '#notifications/services/order_emails'
import { drawRecords, type DrawRecord } from '#draws/services/draw_records'

/** An entry that lost (or took no part): its order is closed with this reason. */
export const NOT_SELECTED = 'draw_not_selected'
export const CARD_CHECK_NOT_PLACED = 'draw_card_check_not_placed'

type EntryRow = {
  id: number
  public_id: string
  order_id: number
  card_fingerprint: string
  rank: number | null
  result: string | null
  promoted_at: unknown
  replaced_at: unknown
  replaced_by: string | null
  status: string
  hold_status: string
  hold_card_fingerprint: string | null
  fail_reason: string | null
}

/** Holds whose money is still out on a closed order: the sweep settles them again. */
const HOLD_STILL_OUT = ['placed', 'placing', 'requires_action']

/** A winner (or an alternate who replaced one) who has not dropped out. */
const isActiveWinner = (entry: EntryRow) =>
  !entry.replaced_at && (entry.result === 'winner' || Boolean(entry.promoted_at))

/** A draw's entries with their orders, in the order they came. */
export async function entriesOf(productId: number): Promise<EntryRow[]> {
  return db
    .from('draw_entries')
    .join('orders', 'orders.id', 'draw_entries.order_id')
    .where('draw_entries.product_id', productId)
    .orderBy('draw_entries.id', 'asc')
    .select(
      'draw_entries.id',
      'draw_entries.public_id',
      'draw_entries.order_id',
      'draw_entries.card_fingerprint',
      'draw_entries.rank',
      'draw_entries.result',
      'draw_entries.promoted_at',
      'draw_entries.replaced_at',
      'draw_entries.replaced_by',
      'orders.status',
      'orders.hold_status',
      'orders.hold_card_fingerprint',
      'orders.fail_reason'
    )
}

/**
 * What follows a decided draw (`draw_runner.ts`): the orders follow the recorded result (winners
 * pending with their hold kept and a slot each; the others closed through `orderSettlement`,
 * their hold released, never charged) and each customer is e-mailed once. Every step is
 * idempotent, so a later call finishes what a crash, a gateway asking to retry or a sell-out
 * left, and puts the next alternate in the place of a winner whose card check failed before
 * release day.
 */
export class DrawSettlement {
  /** Moves the orders of a decided draw to their result; each step is idempotent. */
  async finish(record: DrawRecord): Promise<number> {
    let moved = 0
    for (const entry of await entriesOf(record.productId)) {
      if (!entry.result) continue
      if (isActiveWinner(entry)) {
        if (entry.status === 'entered') {
          const won = await db.transaction(async (trx) => {
            await slotStock.lockFirst(record.productId, trx)
            if (!(await orderLifecycle.drawWon(entry.order_id, trx))) return false
            await slotStock.takeForDrawWinner(record.productId, trx)
            return true
          })
          if (won) moved += 1
        }
        const order = await orderQueries.findById(entry.order_id)
        if (order.status === 'pending' && !entry.promoted_at) {
          await orderEmails.sendDrawResult(order, entry.public_id, true)
        }
        continue
      }
      if (entry.promoted_at && entry.replaced_at) continue
      const reason = entry.result === 'skipped' ? CARD_CHECK_NOT_PLACED : NOT_SELECTED
      if (entry.status === 'entered') {
        const { cancelled } = await orderSettlement.cancel(entry.order_id, { reason })
        if (cancelled) moved += 1
      } else if (entry.status === 'cancelled' && HOLD_STILL_OUT.includes(entry.hold_status)) {
        // Its hold was not released the first time (the gateway asked to retry): again.
        await orderSettlement.settle(entry.order_id)
      }
      const order = await orderQueries.findById(entry.order_id)
      if (order.status === 'cancelled' && order.failReason === reason) {
        await orderEmails.sendDrawResult(order, entry.public_id, false)
      }
    }
    return moved
  }

  /**
   * Before release day, a winner whose order was cancelled (their card check failed) is
   * replaced by the next alternate in rank order, who is e-mailed, gets a slot and a new $1.00
   * check; an alternate whose check fails in turn is replaced the same way.
   */
  async replaceDroppedOut(record: DrawRecord, product: ProductRecord): Promise<number> {
    if (!record.drawnAt || record.ruleVersion !== 2) return 0
    if (product.releaseAt && product.releaseAt.toMillis() <= clock.nowMs()) return 0
    let promoted = 0
    for (;;) {
      const entries = await entriesOf(record.productId)
      const dropped = entries.find((entry) => isActiveWinner(entry) && entry.status === 'cancelled')
      if (!dropped) return promoted
      const next = entries
        .filter(
          (entry) =>
            entry.result === 'alternate' &&
            !entry.promoted_at &&
            entry.status === 'cancelled' &&
            entry.fail_reason === NOT_SELECTED
        )
        .sort((a, b) => Number(a.rank) - Number(b.rank))[0]
      const promotedId = await db.transaction(async (trx) => {
        const replaced = await trx
          .from('draw_entries')
          .where('id', dropped.id)
          .whereNull('replaced_at')
          .update({ replaced_at: sqlTime() })
        if (affectedRows(replaced) !== 1 || !next) return null
        await slotStock.lockFirst(record.productId, trx)
        try {
          if (!(await orderLifecycle.drawPromoted(next.order_id, NOT_SELECTED, trx))) return null
        } catch (error) {
          if (!isUniqueViolation(error)) throw error
          return null
        }
        await slotStock.takeForDrawWinner(record.productId, trx)
        await trx.from('draw_entries').where('id', next.id).update({ promoted_at: sqlTime() })
        await trx
          .from('draw_entries')
          .where('id', dropped.id)
          .update({ replaced_by: next.public_id })
        return next
      })
      if (!promotedId) continue
      promoted += 1
      // Deduplicated as every hold job of the order; if one is still kept, the hold sweep finds
      // the promoted order (its hold is queued) within its interval.
      await jobs.dispatch('payments.place-hold', { orderId: promotedId.order_id })
      const order = await orderQueries.findById(promotedId.order_id)
      await orderEmails.sendDrawPromoted(order, promotedId.public_id)
    }
  }

  /** A drawn draw is settled once every order has its result and no loser's hold is still out. */
  async settleIfDone(record: DrawRecord): Promise<boolean> {
    if (!record.drawnAt) return false
    if (record.settledAt) return true
    const entries = await entriesOf(record.productId)
    const done = entries.every((entry) => {
      if (!entry.result || entry.status === 'entered') return false
      if (isActiveWinner(entry)) return true
      return !(entry.status === 'cancelled' && HOLD_STILL_OUT.includes(entry.hold_status))
    })
    if (done) await drawRecords.markSettled(record)
    return done
  }
}

export const drawSettlement = new DrawSettlement()
