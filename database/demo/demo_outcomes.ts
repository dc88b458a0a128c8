import { DateTime } from 'luxon'
import User from '#accounts/models/user'
import Product from '#catalog/models/product'
import Profile from '#profiles/models/profile'
import Order from '#orders/models/order'
import { SHOE_SIZES } from '#catalog/services/catalog_service'
import { checkoutService } from '#checkout/services/checkout_service'
import { holdWorker } from '#payments/services/hold_worker'
import { releaseRunner } from '#release/services/release_runner'
import type { CheckoutEngine, EngineResult } from '#release/services/checkout_engines'
import { adminOrderActions } from '#admin/services/admin_order_actions_service'

/*
| The demo customer's orders in every state the orders page shows, and a release that settled
| three days ago, so the public outcome report, the orders page and the pings have something to
| show right after `npm start` (docs/operations.md). Kept apart from the rest of the demo seed.
*/

/** A first-come release that has run: its public report is at /releases/<its id>. */
export const DEMO_PAST_RELEASE = {
  slug: 'adidas-gazelle-indoor-past-release',
  title: "adidas Gazelle Indoor 'Past Release'",
  releasedDaysAgo: 3,
}

const ACTOR = { actor: { label: 'demo seed' } }

/** The customer's profile of that name (the demo seed makes Home and Office). */
async function profileOf(user: User, name: string) {
  return Profile.query().where('user_id', user.id).where('profile_name', name).firstOrFail()
}

/**
 * The demo customer's slot on the release-day demo, placed with the other customers' slots
 * before its release time (its $1.00 check is placed with theirs): after `npx dropslot
 * release:run` it is a success or a failure, pinged if notifications were turned on.
 */
export async function demoCustomerReleaseDayOrder(product: Product, customerEmail: string) {
  const customer = await User.findByOrFail('email', customerEmail)
  const home = await profileOf(customer, 'Home')
  await checkoutService.checkout(customer, {
    productId: product.id,
    style: product.styles.split(',')[0].trim(),
    size: '10',
    profileId: home.publicId,
  })
}

/** The demo customer's entry in the draw taking entries now (the page says Entered). */
export async function demoCustomerDrawEntry(drawSlug: string, customerEmail: string) {
  const draw = await Product.findBy('slug', drawSlug)
  if (!draw) return
  const customer = await User.findByOrFail('email', customerEmail)
  const entered = await Order.query()
    .where('product_id', draw.id)
    .where('user_id', customer.id)
    .first()
  if (entered) return
  // The Office profile: its address is the customer's own in this draw (one entry per address),
  // and the card counted is the card on file, which no other demo account holds.
  const office = await profileOf(customer, 'Office')
  await checkoutService.checkout(customer, {
    productId: draw.id,
    style: draw.styles.split(',')[0].trim(),
    size: '10',
    profileId: office.publicId,
  })
  await holdWorker.drain()
}

type Planned = { email: string; profile: string; size: string; result: EngineResult }

const sold = { status: 'fail', reason: 'Sold out before checkout.' } as const
const success = (number: string) => ({ status: 'success', confirmationNumber: number }) as const

/** The past release's product, first made with a release time still ahead so it takes orders. */
function createPastReleaseProduct() {
  return Product.create({
    slug: DEMO_PAST_RELEASE.slug,
    title: DEMO_PAST_RELEASE.title,
    image: '/images/products/adidas-samba-og-cloud-white.svg',
    description: 'A release that has run: see how it went on its public report.',
    priceCents: 2800,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Collegiate Green / Gum',
    tags: 'adidas',
    avail: true,
    totalStock: 40,
    stockTaken: 0,
    releaseAt: DateTime.now().plus({ hours: 1 }).startOf('minute'),
  })
}

/** The demo customer's two slots, then two for each other customer, results in turn. */
async function pastReleasePlan(customerEmail: string, others: string[]) {
  const plan: Planned[] = [
    { email: customerEmail, profile: 'Home', size: '10', result: success('ADS-448120') },
    { email: customerEmail, profile: 'Office', size: '10', result: sold },
  ]
  const outcomes: EngineResult[] = [
    success('ADS-448121'),
    { status: 'fail', reason: 'Card declined at the retailer payment step.' },
    success('ADS-448122'),
    { status: 'fail', reason: 'Shipping address rejected by the retailer.' },
    success('ADS-448123'),
    { status: 'fail', reason: 'Retailer queue timed out.' },
    success('ADS-448124'),
    sold,
  ]
  for (const [index, email] of others.entries()) {
    const user = await User.findByOrFail('email', email)
    const profiles = await Profile.query().where('user_id', user.id).orderBy('id', 'asc').limit(2)
    for (const [slot, profile] of profiles.entries()) {
      plan.push({
        email,
        profile: profile.profileName,
        size: slot === 0 ? '9' : '10.5',
        result: outcomes[(index * 2 + slot) % outcomes.length],
      })
    }
  }
  return plan
}

/** Checks out every planned slot; the result each order is to get, by its public id. */
async function placePlannedOrders(product: Product, plan: Planned[]) {
  const byOrder = new Map<string, EngineResult>()
  for (const item of plan) {
    const user = await User.findByOrFail('email', item.email)
    const profile = await profileOf(user, item.profile)
    const order = await checkoutService.checkout(user, {
      productId: product.id,
      style: 'Collegiate Green / Gum',
      size: item.size,
      profileId: profile.publicId,
    })
    byOrder.set(order.publicId, item.result)
  }
  await holdWorker.drain()
  return byOrder
}

/** Moves the release and its orders into the past, then runs it with the planned results. */
async function runPastRelease(product: Product, byOrder: Map<string, EngineResult>) {
  // Bought days before the release, released three days ago.
  const released = DateTime.now().minus({ days: DEMO_PAST_RELEASE.releasedDaysAgo })
  await Order.query()
    .where('product_id', product.id)
    .update({ created_at: released.minus({ days: 2 }).toFormat('yyyy-MM-dd HH:mm:ss') })
  product.releaseAt = released.startOf('minute')
  await product.save()

  const engine: CheckoutEngine = {
    name: 'simulator',
    needsCardData: false,
    async submit(task) {
      return byOrder.get(task.orderId) ?? sold
    },
  }
  const run = await releaseRunner.run({ productId: product.id, engine, trigger: 'demo seed' })
  if (run.status !== 'finished') {
    throw new Error(`The past release of the demo did not run: ${run.error ?? run.status}`)
  }
}

/** The retailer cancelled one success afterwards: corrected to failed, its fee refunded. */
async function cancelOneSuccess(product: Product, customerEmail: string) {
  const cancelled = await Order.query()
    .where('product_id', product.id)
    .where('status', 'success')
    .whereNot('email', customerEmail)
    .orderBy('id', 'desc')
    .first()
  if (cancelled) {
    await adminOrderActions.correctToFail(
      cancelled.publicId,
      {
        reason: 'The retailer cancelled the order after confirming it (stock error).',
        reasonCode: 'other',
      },
      ACTOR,
      'demo seed'
    )
  }
}

/**
 * A release three days ago, settled: the demo customer's two slots (one secured and charged,
 * one sold out: Not secured on the page), the other demo customers' slots with every kind of
 * result, and one success the retailer cancelled afterwards (its fee refunded). Made once.
 */
export async function pastReleaseDemo(customerEmail: string, others: string[]) {
  if (await Product.findBy('slug', DEMO_PAST_RELEASE.slug)) return
  const product = await createPastReleaseProduct()
  const plan = await pastReleasePlan(customerEmail, others)
  const byOrder = await placePlannedOrders(product, plan)
  await runPastRelease(product, byOrder)
  await cancelOneSuccess(product, customerEmail)
}
