import db from '@adonisjs/lucid/services/db'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { orderUpdates } from '#orders/services/order_updates'
import { slotStock } from '#catalog/services/slot_stock'
import { crashPoint } from '#core/services/crash_points'
import { sqlTime } from '#core/helpers/sql_time'
import type { DriverSession } from '#core/services/driver_session'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { AppError } from '#core/exceptions/app_error'
import type { SlotChoiceColumns } from '#orders/services/slot_choice_columns'
import type { OrderStatus } from '#shared/vocabulary'
import {
  INSERT_ORDER,
  newOrderRow,
  type NewOrder,
  type OpenedOrder,
} from '#orders/services/new_order_row'

export type { NewOrder, OpenedOrder } from '#orders/services/new_order_row'

const TAKE_SLOT_AND_OPEN_ORDER = 'take_slot_and_open_order'

/** What a success records: the retailer's confirmation, and where and in which size it was won. */
export type SuccessDetails = {
  confirmationNumber?: string | null
  retailer?: string | null
  size?: string | null
}

/** Where a transition runs and what else it asks of the row. */
type TransitionOptions = {
  /** Further conditions the row must meet besides its status. */
  where?: Record<string, string>
  /** The caller's transaction; the announcement then waits for its commit. */
  trx?: TransactionClientContract
  /** False: the caller announces the change itself, after a step of its own. */
  announce?: boolean
}

/**
 * The order lifecycle (docs/decisions.md): (slot bought) -> pending -> processing -> success |
 * fail, and pending -> cancelled. Each transition is one conditional UPDATE (applied only from the states
 * it may leave, with its timestamp), so re-applying it is a no-op. The lifecycle moves no money:
 * payments' `orderSettlement` runs a transition and then brings the money in line with it
 * (idempotent and ledger-backed). A crash at any line is repaired by calling the same method again.
 */
export class OrderLifecycle {
  /**
   * Slot bought -> pending, inside the checkout's transaction: the order counts as active (the
   * unique index of active orders refuses a duplicate) and its $1.00 hold is queued for the worker.
   */
  async open(input: NewOrder, session: DriverSession): Promise<OpenedOrder> {
    const { order, stamp, values } = newOrderRow(input)
    const { insertId } = await session.run(INSERT_ORDER, [...values, stamp, stamp])
    return { id: insertId, ...order }
  }

  /**
   * Entry taken -> entered (a draw product): no slot is taken yet, the order counts as active (one
   * entry per product and profile) and its $1.00 hold is queued like a purchase's.
   */
  async enter(input: NewOrder, session: DriverSession): Promise<OpenedOrder> {
    const { order, stamp, values } = newOrderRow(input, 'entered')
    const { insertId } = await session.run(INSERT_ORDER, [...values, stamp, stamp])
    return { id: insertId, ...order }
  }

  /**
   * entered -> pending, a draw's winner, in the draw's transaction (`trx`), which takes its slot.
   * False when the order is no longer entered (its card check was declined meanwhile).
   */
  async drawWon(id: number, trx: TransactionClientContract): Promise<boolean> {
    return this.transition(id, 'entered', { status: 'pending', updated_at: sqlTime() }, { trx })
  }

  /**
   * cancelled (not selected) -> pending, a draw's alternate taking the place of a winner who
   * dropped out before release day, in the draw's transaction (`trx`, which takes the slot). The
   * order counts as active again and a new $1.00 check is queued under the next hold round (its
   * own idempotency key). False when the order is not a cancelled, unselected entry (or the
   * customer holds another active order for the product with the same profile).
   */
  async drawPromoted(
    id: number,
    notSelectedReason: string,
    trx: TransactionClientContract
  ): Promise<boolean> {
    const order = await trx.from('orders').where('id', id).select('hold_round').first()
    if (!order) return false
    const where = { fail_reason: notSelectedReason, fee_status: 'none' }
    return this.transition(
      id,
      'cancelled',
      {
        status: 'pending',
        active_slot: 1,
        fail_reason: null,
        cancelled_at: null,
        slot_returned: false,
        hold_round: Number(order.hold_round) + 1,
        hold_status: 'queued',
        hold_payment_id: null,
        hold_attempts: 0,
        hold_error_code: null,
        hold_claimed_at: null,
        hold_next_attempt_at: null,
        hold_placed_at: null,
        hold_released_at: null,
        hold_card_fingerprint: null,
        updated_at: sqlTime(),
      },
      { where, trx }
    )
  }

  /**
   * Takes a slot of the order's product and opens the order (slot bought -> pending) in one
   * round trip, on MariaDB/MySQL: the stored procedure `take_slot_and_open_order` (migration
   * 0500) runs the same conditional UPDATE as `SlotStock.take`, then this INSERT, and commits
   * (or works under a savepoint inside the caller's open transaction). Null when no slot is left.
   * A duplicate active order rejects with the unique index's error, with nothing written.
   */
  async openWithSlot(input: NewOrder, session: DriverSession): Promise<OpenedOrder | null> {
    const { order, stamp, values } = newOrderRow(input)
    const row = await session.call<{ order_id: number | null }>(TAKE_SLOT_AND_OPEN_ORDER, [
      session.insideTransaction ? 1 : 0,
      stamp,
      ...values,
    ])
    return row?.order_id ? { id: Number(row.order_id), ...order } : null
  }

  /**
   * The buyer's new sizes, retailers and cap, written only while the order waits for its release
   * (entered or pending): a run that claimed it (processing) has already sent them. False when
   * the order no longer waits.
   */
  async changeChoices(id: number, columns: SlotChoiceColumns): Promise<boolean> {
    const set = {
      size_ladder: columns.sizeLadder,
      retailer_choice: columns.retailerChoice,
      max_item_price_cents: columns.maxItemPriceCents,
      updated_at: sqlTime(),
    }
    return this.transition(id, ['entered', 'pending'], set, { announce: false })
  }

  /** pending -> processing (the release run handed the order to a checkout engine). */
  async markProcessing(orderOrId: { id: number } | number): Promise<OrderRecord> {
    await this.claimForProcessing(orderOrId)
    return orderQueries.findById(idOf(orderOrId))
  }

  /**
   * pending -> processing as a claim: true only for the one caller whose UPDATE moved the order,
   * so two release runs can never both submit it.
   */
  async claimForProcessing(orderOrId: { id: number } | number): Promise<boolean> {
    const set = { status: 'processing', processing_at: sqlTime(), updated_at: sqlTime() }
    return this.transition(idOf(orderOrId), 'pending', set)
  }

  /**
   * processing -> pending: a claim given back because the order never reached the checkout
   * engine (it could not be reached), so the next run takes it like any pending order.
   */
  async unclaim(orderOrId: { id: number } | number): Promise<boolean> {
    const set = { status: 'pending', processing_at: null, updated_at: sqlTime() }
    return this.transition(idOf(orderOrId), 'processing', set)
  }

  /**
   * pending|processing -> success (the retailer confirmed), then the fee is charged off-session
   * and the hold released. Calling it again on a successful order finishes whatever money step a
   * crash or an outage left undone.
   */
  async succeed(orderOrId: { id: number } | number, details: SuccessDetails = {}): Promise<void> {
    const id = idOf(orderOrId)
    const set = {
      status: 'success',
      succeeded_at: sqlTime(),
      confirmation_number: details.confirmationNumber?.slice(0, 120) ?? null,
      secured_retailer: details.retailer ?? null,
      secured_size: details.size?.slice(0, 16) ?? null,
      updated_at: sqlTime(),
    }
    const changed = await this.transition(id, ['pending', 'processing'], set, { announce: false })
    crashPoint('order-succeeded')
    if (changed) await orderUpdates.changed(id)
  }

  /**
   * pending|processing -> fail (shown as Refunded): no fee, hold released, the order stops
   * counting as active, and its slot goes back if the product is not released yet. `code` is the
   * customer-facing category of the failure; `reason` the engine's own words (admins only).
   */
  async fail(
    orderOrId: { id: number } | number,
    details: { reason?: string | null; code?: string | null } = {}
  ): Promise<void> {
    const id = idOf(orderOrId)
    let failed = false
    await db.transaction(async (trx) => {
      const order = await trx.from('orders').where('id', id).select('product_id').first()
      if (!order) return
      await slotStock.lockFirst(order.product_id, trx)
      const set = {
        status: 'fail',
        failed_at: sqlTime(),
        fail_reason: details.reason?.slice(0, 255) ?? null,
        fail_code: details.code ?? null,
        active_slot: null,
        updated_at: sqlTime(),
      }
      failed = await this.transition(id, ['pending', 'processing'], set, { trx, announce: false })
      if (failed && (await slotStock.giveBackIfUnreleased(order.product_id, trx))) {
        await trx.from('orders').where('id', id).update({ slot_returned: true })
      }
    })
    // A hold that was never placed is skipped with the same announcement.
    if (!(await orderPaymentState.holdSkipped(id)) && failed) await orderUpdates.changed(id)
  }

  /**
   * success -> fail, a correction (the retailer cancelled after confirming): the fee is refunded
   * (what is left of it) by `settle`; the slot stays taken (the release has dropped). `changed`
   * is false when the order was not successful (nothing done).
   */
  async correctToFail(
    orderOrId: { id: number } | number,
    details: { reason: string; code: string }
  ): Promise<boolean> {
    return this.transition(idOf(orderOrId), 'success', {
      status: 'fail',
      failed_at: sqlTime(),
      fail_reason: details.reason.slice(0, 255),
      fail_code: details.code,
      active_slot: null,
      updated_at: sqlTime(),
    })
  }

  /**
   * fail -> success, a correction by the retailer's own word (its signed confirmation arrived
   * after the checkout bot reported a failure): the retailer wins. Only an order whose fee was
   * never charged, refunded or waived (`fee_status` none); `settle` then charges the fee once.
   * The order counts as active again when no other order of the customer took its place. False
   * when the order was not such a failure (nothing done).
   */
  async correctToSuccess(
    orderOrId: { id: number } | number,
    details: { confirmationNumber?: string | null } = {}
  ): Promise<boolean> {
    const id = idOf(orderOrId)
    const values = {
      status: 'success',
      succeeded_at: sqlTime(),
      confirmation_number: details.confirmationNumber?.slice(0, 120) ?? null,
      fail_reason: null,
      fail_code: null,
      failed_at: null,
      updated_at: sqlTime(),
    }
    const move = (activeSlot: number | null) =>
      this.transition(
        id,
        'fail',
        { ...values, active_slot: activeSlot },
        { where: { fee_status: 'none' } }
      )
    try {
      return await move(1)
    } catch (error) {
      // Another active order of the customer holds the product and profile's place.
      if (!isUniqueViolation(error)) throw error
      return move(null)
    }
  }

  /**
   * success -> retailer_cancelled: the retailer cancelled the order after confirming it (its
   * signed cancellation e-mail). The customer sees it; `settle` refunds the whole fee under its
   * own key. False when the order was not successful (nothing done).
   */
  async retailerCancel(
    orderOrId: { id: number } | number,
    details: { reason: string }
  ): Promise<boolean> {
    return this.transition(idOf(orderOrId), 'success', {
      status: 'retailer_cancelled',
      cancelled_at: sqlTime(),
      fail_reason: details.reason.slice(0, 255),
      active_slot: null,
      updated_at: sqlTime(),
    })
  }

  /**
   * fail -> pending, a failed submission tried again: the order takes its slot again if it gave
   * it back (refused, nothing changed, when none is left), counts as active again (refused on the
   * duplicate rule), and a new $1.00 hold is queued under the next hold round (its own
   * idempotency key). `within` runs in the same transaction (the release task is reset with it).
   * Null when the order was not failed (another actor got there first).
   */
  async retry(
    orderOrId: { id: number } | number,
    within?: (trx: TransactionClientContract) => Promise<void>
  ): Promise<OrderRecord | null> {
    const id = idOf(orderOrId)
    const moved = await db.transaction(async (trx) => {
      const order = await trx
        .from('orders')
        .where('id', id)
        .select('product_id', 'slot_returned', 'hold_round')
        .first()
      if (!order) return false
      await slotStock.lockFirst(order.product_id, trx)
      const changed = await this.transition(
        id,
        'fail',
        {
          status: 'pending',
          active_slot: 1,
          fail_reason: null,
          fail_code: null,
          failed_at: null,
          processing_at: null,
          slot_returned: false,
          hold_round: Number(order.hold_round) + 1,
          hold_status: 'queued',
          hold_payment_id: null,
          hold_attempts: 0,
          hold_error_code: null,
          hold_claimed_at: null,
          hold_next_attempt_at: null,
          hold_placed_at: null,
          hold_released_at: null,
          updated_at: sqlTime(),
        },
        { where: { fee_status: 'none' }, trx, announce: false }
      )
      if (!changed) return false
      if (Boolean(order.slot_returned) && !(await slotStock.retake(order.product_id, trx))) {
        throw AppError.conflict(
          'This release is sold out: no slot is left to try the order again.',
          'sold_out'
        )
      }
      await within?.(trx)
      return true
    })
    if (!moved) return null
    await orderUpdates.changed(id)
    return orderQueries.findById(id)
  }

  /**
   * pending|entered -> cancelled (declined hold, customer or admin, a draw entry not selected):
   * a pending order's slot goes back at once (an entry has none), the hold is released if it was
   * placed and never placed if it was still queued.
   */
  async cancel(
    orderOrId: { id: number } | number,
    details: { reason?: string | null } = {}
  ): Promise<boolean> {
    const id = idOf(orderOrId)
    let cancelled = false
    await db.transaction(async (trx) => {
      const order = await trx.from('orders').where('id', id).select('product_id').first()
      if (!order) return
      await slotStock.lockFirst(order.product_id, trx)
      const { status } = await trx.from('orders').where('id', id).select('status').first()
      if (status !== 'pending' && status !== 'entered') return
      const set = {
        status: 'cancelled',
        cancelled_at: sqlTime(),
        fail_reason: details.reason?.slice(0, 255) ?? null,
        active_slot: null,
        updated_at: sqlTime(),
      }
      cancelled = await this.transition(id, status, set, { trx, announce: false })
      if (cancelled && status === 'pending') {
        await slotStock.giveBack(order.product_id, trx)
        await trx.from('orders').where('id', id).update({ slot_returned: true })
      }
    })
    if (!(await orderPaymentState.holdSkipped(id)) && cancelled) await orderUpdates.changed(id)
    return cancelled
  }

  /**
   * The conditional UPDATE every transition is: applied only from the states it may leave, so
   * true for the one caller that moved the order and false for a repeat. The change is announced
   * to the customer at once, or when the caller's transaction commits.
   */
  private async transition(
    id: number,
    from: OrderStatus | OrderStatus[],
    set: Record<string, unknown>,
    { where = {}, trx, announce = true }: TransitionOptions = {}
  ): Promise<boolean> {
    const query = (trx ?? db).from('orders').where('id', id)
    if (Array.isArray(from)) query.whereIn('status', from)
    else query.where('status', from)
    for (const [column, value] of Object.entries(where)) query.where(column, value)
    if (affectedRows(await query.update(set)) !== 1) return false
    if (!announce) return true
    if (trx) orderUpdates.afterCommit(trx, id)
    else await orderUpdates.changed(id)
    return true
  }
}

function idOf(orderOrId: { id: number } | number) {
  return typeof orderOrId === 'number' ? orderOrId : orderOrId.id
}

export const orderLifecycle = new OrderLifecycle()
