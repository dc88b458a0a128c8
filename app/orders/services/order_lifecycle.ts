import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { randomUUID } from 'node:crypto'
import Order from '#orders/models/order'
import type { PresentableOrder } from '#orders/services/order_presenter'
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

/**
 * The order lifecycle (docs/decisions.md): (slot bought) -> pending -> processing -> success |
 * fail, and pending -> cancelled. Each transition is one conditional UPDATE (applied only from the states
 * it may leave, with its timestamp), so re-applying it is a no-op. The lifecycle moves no money:
 * payments' `orderSettlement` runs a transition and then brings the money in line with it
 * (idempotent and ledger-backed). A crash at any line is repaired by calling the same method again.
 */
export type NewOrder = Pick<
  Order,
  | 'userId'
  | 'productId'
  | 'profileId'
  | 'productTitle'
  | 'basePriceCents'
  | 'priceCents'
  | 'promoCode'
  | 'promoPercent'
  | 'style'
  | 'size'
  | 'sizeLadder'
  | 'retailerChoice'
  | 'maxItemPriceCents'
  | 'email'
  | 'name'
  | 'acoVault'
  | 'holdAmountCents'
>

/** A new order as stored: what the checkout, its e-mail and its answer read. */
export type OpenedOrder = NewOrder &
  PresentableOrder &
  Pick<Order, 'id' | 'activeSlot' | 'holdAttempts' | 'updatedAt'>

const INSERT_ORDER = `INSERT INTO orders (public_id, user_id, product_id, profile_id, product_title,
  base_price_cents, price_cents, promo_code, promo_percent, style, size, email, name, status,
  active_slot, aco_vault, hold_status, hold_amount_cents, hold_attempts, fee_status, fee_attempts,
  refunded_cents, size_ladder, retailer_choice, max_item_price_cents, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`

const TAKE_SLOT_AND_OPEN_ORDER = 'take_slot_and_open_order'

/** What a success records: the retailer's confirmation, and where and in which size it was won. */
export type SuccessDetails = {
  confirmationNumber?: string | null
  retailer?: string | null
  size?: string | null
}

/**
 * A new order as stored (slot bought -> pending: counted as active, its $1.00 hold queued for the
 * worker) and the values of its INSERT, in INSERT_ORDER's order without the two timestamps.
 * A plain object, not a model: building and saving a 40-column model was the dearest part of the
 * checkout's CPU, and every caller only reads the result. The timestamps are at the database's
 * precision (whole seconds), so the object is the row.
 */
function newOrderRow(input: NewOrder, status: 'pending' | 'entered' = 'pending') {
  const created = new Date(Math.floor(Date.now() / 1000) * 1000)
  const now = DateTime.fromJSDate(created)
  // Every field by name: V8 (Node 20) builds an object spread followed by more fields at about
  // 3 µs per field after it (this literal alone: 98 µs; 30-37 µs of a checkout's profile
  // samples); listed, the object costs well under one.
  const order: Omit<OpenedOrder, 'id'> = {
    userId: input.userId,
    productId: input.productId,
    profileId: input.profileId,
    productTitle: input.productTitle,
    basePriceCents: input.basePriceCents,
    priceCents: input.priceCents,
    promoCode: input.promoCode,
    promoPercent: input.promoPercent,
    style: input.style,
    size: input.size,
    sizeLadder: input.sizeLadder,
    retailerChoice: input.retailerChoice,
    maxItemPriceCents: input.maxItemPriceCents,
    email: input.email,
    name: input.name,
    acoVault: input.acoVault,
    holdAmountCents: input.holdAmountCents,
    publicId: randomUUID(),
    status,
    activeSlot: 1,
    confirmationNumber: null,
    failReason: null,
    failCode: null,
    holdStatus: 'queued',
    holdAttempts: 0,
    holdErrorCode: null,
    holdPlacedAt: null,
    holdReleasedAt: null,
    feeStatus: 'none',
    feeChargedAt: null,
    refundedCents: 0,
    refundedAt: null,
    createdAt: now,
    updatedAt: now,
  }
  const values = [
    order.publicId,
    order.userId,
    order.productId,
    order.profileId,
    order.productTitle,
    order.basePriceCents,
    order.priceCents,
    order.promoCode,
    order.promoPercent,
    order.style,
    order.size,
    order.email,
    order.name,
    order.status,
    order.activeSlot,
    order.acoVault,
    order.holdStatus,
    order.holdAmountCents,
    order.holdAttempts,
    order.feeStatus,
    order.refundedCents,
    order.sizeLadder,
    order.retailerChoice,
    order.maxItemPriceCents,
  ]
  return { order, stamp: sqlTime(created), values }
}

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
    const changed = await trx
      .from('orders')
      .where('id', id)
      .where('status', 'entered')
      .update({ status: 'pending', updated_at: sqlTime() })
    if (affectedRows(changed) !== 1) return false
    orderUpdates.afterCommit(trx, id)
    return true
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
    const changed = await trx
      .from('orders')
      .where('id', id)
      .where('status', 'cancelled')
      .where('fail_reason', notSelectedReason)
      .where('fee_status', 'none')
      .update({
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
      })
    if (affectedRows(changed) !== 1) return false
    orderUpdates.afterCommit(trx, id)
    return true
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
    const changed = await db
      .from('orders')
      .where('id', id)
      .whereIn('status', ['entered', 'pending'])
      .update({
        size_ladder: columns.sizeLadder,
        retailer_choice: columns.retailerChoice,
        max_item_price_cents: columns.maxItemPriceCents,
        updated_at: sqlTime(),
      })
    return affectedRows(changed) === 1
  }

  /** pending -> processing (the release run handed the order to a checkout engine). */
  async markProcessing(orderOrId: { id: number } | number): Promise<OrderRecord> {
    const id = idOf(orderOrId)
    const changed = await db
      .from('orders')
      .where('id', id)
      .where('status', 'pending')
      .update({ status: 'processing', processing_at: sqlTime(), updated_at: sqlTime() })
    if (affectedRows(changed) === 1) await orderUpdates.changed(id)
    return orderQueries.findById(id)
  }

  /**
   * pending -> processing as a claim: true only for the one caller whose UPDATE moved the order,
   * so two release runs can never both submit it.
   */
  async claimForProcessing(orderOrId: { id: number } | number): Promise<boolean> {
    const id = idOf(orderOrId)
    const result = await db
      .from('orders')
      .where('id', id)
      .where('status', 'pending')
      .update({ status: 'processing', processing_at: sqlTime(), updated_at: sqlTime() })
    if (affectedRows(result) !== 1) return false
    await orderUpdates.changed(id)
    return true
  }

  /**
   * processing -> pending: a claim given back because the order never reached the checkout
   * engine (it could not be reached), so the next run takes it like any pending order.
   */
  async unclaim(orderOrId: { id: number } | number): Promise<boolean> {
    const id = idOf(orderOrId)
    const result = await db
      .from('orders')
      .where('id', id)
      .where('status', 'processing')
      .update({ status: 'pending', processing_at: null, updated_at: sqlTime() })
    if (affectedRows(result) !== 1) return false
    await orderUpdates.changed(id)
    return true
  }

  /**
   * pending|processing -> success (the retailer confirmed), then the fee is charged off-session
   * and the hold released. Calling it again on a successful order finishes whatever money step a
   * crash or an outage left undone.
   */
  async succeed(orderOrId: { id: number } | number, details: SuccessDetails = {}): Promise<void> {
    const id = idOf(orderOrId)
    const changed = await db
      .from('orders')
      .where('id', id)
      .whereIn('status', ['pending', 'processing'])
      .update({
        status: 'success',
        succeeded_at: sqlTime(),
        confirmation_number: details.confirmationNumber?.slice(0, 120) ?? null,
        secured_retailer: details.retailer ?? null,
        secured_size: details.size?.slice(0, 16) ?? null,
        updated_at: sqlTime(),
      })
    crashPoint('order-succeeded')
    if (affectedRows(changed) === 1) await orderUpdates.changed(id)
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
      const changed = await trx
        .from('orders')
        .where('id', id)
        .whereIn('status', ['pending', 'processing'])
        .update({
          status: 'fail',
          failed_at: sqlTime(),
          fail_reason: details.reason?.slice(0, 255) ?? null,
          fail_code: details.code ?? null,
          active_slot: null,
          updated_at: sqlTime(),
        })
      failed = affectedRows(changed) === 1
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
    const id = idOf(orderOrId)
    const changed = await db
      .from('orders')
      .where('id', id)
      .where('status', 'success')
      .update({
        status: 'fail',
        failed_at: sqlTime(),
        fail_reason: details.reason.slice(0, 255),
        fail_code: details.code,
        active_slot: null,
        updated_at: sqlTime(),
      })
    if (affectedRows(changed) !== 1) return false
    await orderUpdates.changed(id)
    return true
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
      db
        .from('orders')
        .where('id', id)
        .where('status', 'fail')
        .where('fee_status', 'none')
        .update({ ...values, active_slot: activeSlot })
    let changed
    try {
      changed = await move(1)
    } catch (error) {
      // Another active order of the customer holds the product and profile's place.
      if (!isUniqueViolation(error)) throw error
      changed = await move(null)
    }
    if (affectedRows(changed) !== 1) return false
    await orderUpdates.changed(id)
    return true
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
    const id = idOf(orderOrId)
    const changed = await db
      .from('orders')
      .where('id', id)
      .where('status', 'success')
      .update({
        status: 'retailer_cancelled',
        cancelled_at: sqlTime(),
        fail_reason: details.reason.slice(0, 255),
        active_slot: null,
        updated_at: sqlTime(),
      })
    if (affectedRows(changed) !== 1) return false
    await orderUpdates.changed(id)
    return true
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
      const changed = await trx
        .from('orders')
        .where('id', id)
        .where('status', 'fail')
        .where('fee_status', 'none')
        .update({
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
        })
      if (affectedRows(changed) !== 1) return false
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
      const changed = await trx
        .from('orders')
        .where('id', id)
        .where('status', status)
        .update({
          status: 'cancelled',
          cancelled_at: sqlTime(),
          fail_reason: details.reason?.slice(0, 255) ?? null,
          active_slot: null,
          updated_at: sqlTime(),
        })
      cancelled = affectedRows(changed) === 1
      if (cancelled && status === 'pending') {
        await slotStock.giveBack(order.product_id, trx)
        await trx.from('orders').where('id', id).update({ slot_returned: true })
      }
    })
    if (!(await orderPaymentState.holdSkipped(id)) && cancelled) await orderUpdates.changed(id)
    return cancelled
  }
}

function idOf(orderOrId: { id: number } | number) {
  return typeof orderOrId === 'number' ? orderOrId : orderOrId.id
}

export const orderLifecycle = new OrderLifecycle()
