import type { OrderRecord } from '#orders/services/order_queries'
import type { PingMessage } from '#notifications/services/notification_service'
import { customerReason } from '#orders/services/failure_reasons'
import { orderNumber } from '#orders/services/order_numbers'

const ORDERS_PAGE = '/user/orders'
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

/**
 * The ping (web push, Discord) of an order's outcome, beside its e-mail and under the same dedupe
 * key: a title and a line a lock screen can show, nothing more personal than the e-mail has.
 */
export function pingFor(
  order: Pick<
    OrderRecord,
    'id' | 'publicId' | 'productTitle' | 'priceCents' | 'confirmationNumber' | 'failCode'
  >,
  kind: 'secured' | 'failed' | 'fee_declined' | 'hold_needs_confirmation',
  extra: { confirmBy?: string } = {}
): PingMessage {
  const number = orderNumber(order.id)
  const tag = `order-${order.publicId}`
  switch (kind) {
    case 'secured':
      return {
        title: `Secured: ${order.productTitle}`,
        body:
          `Order ${number} went through` +
          (order.confirmationNumber ? ` (retailer confirmation ${order.confirmationNumber})` : '') +
          '.',
        url: ORDERS_PAGE,
        tag,
      }
    case 'failed':
      return {
        title: `Not this time: ${order.productTitle}`,
        body: `Order ${number} did not go through: ${customerReason(order.failCode)} No fee is charged.`,
        url: ORDERS_PAGE,
        tag,
      }
    case 'fee_declined':
      return {
        title: `Fee due: ${order.productTitle}`,
        body: `Order ${number} succeeded, but your card was declined for the ${dollars(order.priceCents)} fee. Update your card.`,
        url: ORDERS_PAGE,
        tag,
      }
    case 'hold_needs_confirmation':
      return {
        title: 'Confirm your $1.00 card check',
        body: `${order.productTitle}: your bank asks you to confirm the card check of order ${number}${extra.confirmBy ? ` by ${extra.confirmBy}` : ''}.`,
        url: ORDERS_PAGE,
        tag,
      }
  }
}
