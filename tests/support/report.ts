import { DateTime } from 'luxon'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import type { CheckoutEngine, EngineResult } from '#release/services/checkout_engines'
import { customerWithCard, placeHolds, productFor, profileFor, TEST_CARDS } from '#tests/helpers'

/** An engine that answers what the test decided for each order (by its public id). */
export function scriptedEngine(outcomes: Map<string, EngineResult>): CheckoutEngine {
  return {
    name: 'simulator',
    needsCardData: false,
    async submit(task) {
      return outcomes.get(task.orderId) ?? { status: 'fail', reason: 'Not scripted' }
    },
  }
}

export type PlannedOrder = {
  size: string
  /** What the retailer answers on release day; `declined-hold`: the card check is refused. */
  result: 'success' | 'sold_out' | 'declined' | 'address' | 'other' | 'declined-hold'
}

const REASONS: Record<string, string> = {
  sold_out: 'Sold out before checkout.',
  declined: 'Card declined at the retailer payment step.',
  address: 'Shipping address rejected by the retailer.',
  other: 'Retailer queue timed out.',
}

/**
 * A product whose slots were bought before its release (one customer per order, holds placed)
 * and whose release time has just passed, with the engine's answer for each order planned.
 */
export async function plannedRelease(
  planned: PlannedOrder[],
  product: Record<string, unknown> = {},
  options: { emailPrefix?: string } = {}
) {
  const { checkoutService } = await import('#checkout/services/checkout_service')
  const created = await productFor({
    totalStock: planned.length + 5,
    stockTaken: 0,
    priceCents: 2500,
    ...product,
  })
  const orders: Order[] = []
  const customers = []
  const outcomes = new Map<string, EngineResult>()
  for (const [index, plan] of planned.entries()) {
    const customer = await customerWithCard(
      plan.result === 'declined-hold' ? TEST_CARDS.declinesCharges : TEST_CARDS.ok,
      options.emailPrefix
        ? { email: `${options.emailPrefix}${index}-${Date.now().toString(36)}@example.test` }
        : {}
    )
    const profile = await profileFor(customer.user)
    const opened = await checkoutService.checkout(customer.user, {
      productId: created.id,
      style: 'Black',
      size: plan.size,
      profileId: profile.publicId,
    })
    const order = await Order.findOrFail(opened.id)
    orders.push(order)
    customers.push(customer)
    if (plan.result === 'success') {
      outcomes.set(order.publicId, { status: 'success', confirmationNumber: `RT-${index}` })
    } else if (plan.result !== 'declined-hold') {
      outcomes.set(order.publicId, { status: 'fail', reason: REASONS[plan.result] })
    }
  }
  await placeHolds()
  await Product.query()
    .where('id', created.id)
    .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
  return { product: created, orders, customers, engine: scriptedEngine(outcomes) }
}
