import type { OrderStatus } from '#orders/models/order'

const STATUS_WORDS: Record<OrderStatus, string> = {
  entered: 'entered in a draw',
  pending: 'pending',
  processing: 'being processed',
  success: 'successful',
  fail: 'failed (refunded)',
  cancelled: 'cancelled',
  retailer_cancelled: 'cancelled by the retailer',
}

/** Why an order cannot take a change, in words: "This order is ...; it cannot be ...". */
export function transitionRefusal(status: OrderStatus, wanted: string): string {
  return `This order is ${STATUS_WORDS[status]}; it cannot be ${wanted}.`
}
