import type { CustomerRecord } from '#accounts/services/user_queries'
import { AppError } from '#core/exceptions/app_error'
import { productQueries } from '#catalog/services/product_queries'
import { productRetailers, type RetailerEntry } from '#catalog/services/product_retailers'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { orderUpdates } from '#orders/services/order_updates'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'
import { checkSlotChoices, type SlotChoicesRequest } from '#checkout/services/slot_choices'
import { DateTime } from 'luxon'

export const CHOICES_CLOSED =
  "This slot's release has started: its sizes, retailers and price cap can no longer change."

/** When the release of a product starts: the earliest of its own time and its retailers'. */
function releaseStart(releaseAt: DateTime | null, retailers: readonly RetailerEntry[]) {
  const times = [releaseAt, ...retailers.map((entry) => entry.releaseAt)].filter(
    (time): time is DateTime => time !== null
  )
  return times.length ? times.reduce((first, time) => (time < first ? time : first)) : null
}

function closed(): never {
  throw AppError.conflict(CHOICES_CLOSED, 'choices_closed')
}

/**
 * POST /api/user/orders/:orderId/choices: the buyer changes a slot's size ladder, retailers or
 * price cap, until its release starts. The size itself stays the slot's: the ladder's first.
 */
export async function changeSlotChoices(
  user: CustomerRecord,
  orderId: unknown,
  request: SlotChoicesRequest
): Promise<OrderRecord> {
  const order = await orderQueries.findByPublicId(orderId)
  if (order.userId !== user.id) throw AppError.notFound('Order not found.', 'order_not_found')
  if (order.status !== 'pending' && order.status !== 'entered') closed()
  const product = await productQueries.find(order.productId)
  if (!product) throw AppError.notFound('Order not found.', 'order_not_found')
  const retailers = await productRetailers.listFor(product.id)
  const startsAt = releaseStart(product.releaseAt, retailers)
  if (startsAt && startsAt <= DateTime.now()) closed()

  const before = slotChoiceColumns.read(order)
  const after = checkSlotChoices(product, retailers, order.size, request, before)
  if (!(await orderLifecycle.changeChoices(order.id, slotChoiceColumns.write(after)))) closed()
  await orderTimeline.append({
    orderId: order.id,
    kind: 'choices_changed',
    source: 'storefront',
    actor: user.email,
    meta: { before, after },
  })
  await orderUpdates.changed(order.id)
  return orderQueries.findById(order.id)
}
