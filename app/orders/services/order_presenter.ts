import { customerReason } from '#orders/services/failure_reasons'
import type Order from '#orders/models/order'
import { orderNumber } from '#orders/services/order_numbers'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'
import {
  checkAfterFailure,
  notSecuredWords,
  orderStatusLabel,
  REFUNDED_LABEL,
} from '#shared/vocabulary'

/** What an order shows its customer: a stored Order, or a just-opened one (OrderLifecycle.open). */
export type PresentableOrder = Pick<
  Order,
  | 'id'
  | 'publicId'
  | 'productId'
  | 'productTitle'
  | 'priceCents'
  | 'basePriceCents'
  | 'promoCode'
  | 'promoPercent'
  | 'style'
  | 'size'
  | 'sizeLadder'
  | 'retailerChoice'
  | 'maxItemPriceCents'
  | 'email'
  | 'name'
  | 'status'
  | 'failReason'
  | 'failCode'
  | 'createdAt'
  | 'profileId'
  | 'confirmationNumber'
  | 'holdStatus'
  | 'holdAmountCents'
  | 'holdErrorCode'
  | 'holdPlacedAt'
  | 'holdReleasedAt'
  | 'feeStatus'
  | 'feeChargedAt'
  | 'refundedCents'
  | 'refundedAt'
> &
  Partial<Pick<Order, 'holdNextAttemptAt'>>

/**
 * The spec's Order as customers see it: price in dollars (and cents), the slot's details, and
 * the payment state a customer may know about. Never card data, never the sealed ACO copy.
 */
export function presentOrder(order: PresentableOrder) {
  const fee = { status: order.feeStatus, refundedCents: order.refundedCents }
  const label = orderStatusLabel(order.status, fee)
  const stored = slotChoiceColumns.read(order)
  const choices = { ...stored, ladder: stored.sizeLadder ?? [order.size] }
  return {
    orderId: order.publicId,
    /** The short confirmation number customers read and quote (`DS-7K3Q9X`). */
    orderNumber: orderNumber(order.id),
    productId: order.productId,
    productTitle: order.productTitle,
    price: order.priceCents / 100,
    priceCents: order.priceCents,
    basePriceCents: order.basePriceCents,
    promoCode: order.promoCode,
    promoPercent: order.promoPercent,
    style: order.style,
    size: order.size,
    /** The sizes tried in order, the first `size`. */
    sizes: choices.ladder,
    /** The retailers the buyer accepts; null: every retailer of the release. */
    retailers: choices.retailerChoice,
    /** The most the buyer pays the retailer for the item with shipping; null: no cap. */
    maxItemPriceCents: choices.maxItemPriceCents,
    email: order.email,
    name: order.name,
    status: order.status,
    /** The status in the customer's words: a failure is Not secured, Refunded once a fee came back. */
    statusLabel: label,
    /** A failed order never charged: what happened and that nothing was charged. */
    outcomeWords:
      order.status === 'fail' && label !== REFUNDED_LABEL
        ? notSecuredWords(order.failCode, { check: checkAfterFailure(order.holdStatus) })
        : null,
    // A failure is told in the customer's words; the engine's own text is for admins only.
    statusReason: order.status === 'fail' ? customerReason(order.failCode) : order.failReason,
    orderDate: order.createdAt.toISO(),
    profileId: order.profileId,
    confirmationNumber: order.confirmationNumber,
    hold: {
      status: order.holdStatus,
      amountCents: order.holdAmountCents,
      declineCode: order.holdStatus === 'declined' ? order.holdErrorCode : null,
      placedAt: order.holdPlacedAt?.toISO() ?? null,
      releasedAt: order.holdReleasedAt?.toISO() ?? null,
      /** While the bank waits for the customer's authentication: the deadline to do it by. */
      confirmBy:
        order.holdStatus === 'requires_action'
          ? (order.holdNextAttemptAt?.toUTC().toISO() ?? null)
          : null,
    },
    fee: {
      status: order.feeStatus,
      amountCents: order.priceCents,
      chargedAt: order.feeChargedAt?.toISO() ?? null,
      refundedCents: order.refundedCents,
      refundedAt: order.refundedAt?.toISO() ?? null,
    },
  }
}
