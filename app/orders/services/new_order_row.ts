import { DateTime } from 'luxon'
import { randomUUID } from 'node:crypto'
import type Order from '#orders/models/order'
import type { PresentableOrder } from '#orders/services/order_presenter'
import { sqlTime } from '#core/helpers/sql_time'

/** What the checkout (or a draw's entry) hands the lifecycle to open an order. */
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

export const INSERT_ORDER = `INSERT INTO orders (public_id, user_id, product_id, profile_id, product_title,
  base_price_cents, price_cents, promo_code, promo_percent, style, size, email, name, status,
  active_slot, aco_vault, hold_status, hold_amount_cents, hold_attempts, fee_status, fee_attempts,
  refunded_cents, size_ladder, retailer_choice, max_item_price_cents, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`

/**
 * A new order as stored (slot bought -> pending: counted as active, its $1.00 hold queued for the
 * worker) and the values of its INSERT, in INSERT_ORDER's order without the two timestamps.
 * A plain object, not a model: building and saving a 40-column model was the dearest part of the
 * checkout's CPU, and every caller only reads the result. The timestamps are at the database's
 * precision (whole seconds), so the object is the row.
 */
export function newOrderRow(input: NewOrder, status: 'pending' | 'entered' = 'pending') {
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
