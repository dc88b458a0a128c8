import { DateTime } from 'luxon'
import Product from '#catalog/models/product'
import db from '@adonisjs/lucid/services/db'
import User from '#accounts/models/user'
import Order from '#orders/models/order'
import { customerWithCard, placeHolds, productFor, profileFor, TEST_CARDS } from '#tests/helpers'
import { sqlTime } from '#core/helpers/sql_time'
import { LOCK_TABLE } from '#core/services/lucid_lock_store'

/**
 * A product with `count` pending orders (one customer each, $1.00 holds placed) whose release
 * time has just passed: what `release:run` works on.
 */
export async function releasedProductWithOrders(
  count: number,
  options: { priceCents?: number; slug?: string; emailPrefix?: string } = {}
) {
  const { checkoutService } = await import('#checkout/services/checkout_service')
  const product = await productFor({
    totalStock: count + 5,
    stockTaken: 0,
    priceCents: options.priceCents ?? 2500,
    ...(options.slug ? { slug: options.slug } : {}),
  })
  const orders: Order[] = []
  const customers = []
  for (let index = 0; index < count; index++) {
    const customer = await customerWithCard(
      TEST_CARDS.ok,
      options.emailPrefix
        ? { email: `${options.emailPrefix}${index}-${Date.now().toString(36)}@example.test` }
        : {}
    )
    const profile = await profileFor(customer.user)
    const opened = await checkoutService.checkout(customer.user, {
      productId: product.id,
      style: 'Black',
      size: '9',
      profileId: profile.publicId,
    })
    orders.push(await Order.findOrFail(opened.id))
    customers.push(customer)
  }
  await placeHolds()
  await Product.query()
    .where('id', product.id)
    .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
  return { product, orders, customers }
}

const SANDBOX_TABLES = [
  'sandbox_tokens',
  'sandbox_customers',
  'sandbox_payment_methods',
  'sandbox_payment_intents',
  'sandbox_refunds',
  'sandbox_requests',
]

/**
 * Tests that spawn the CLI commit their data (no global transaction), the sandbox gateway's rows
 * included: remember what the sandbox held before, and remove what was added afterwards.
 */
export async function sandboxSnapshot() {
  const snapshot = new Map<string, Set<string>>()
  for (const table of SANDBOX_TABLES) {
    const rows = await db.from(table).select('id')
    snapshot.set(table, new Set(rows.map((row) => String(row.id))))
  }
  return async function restore() {
    for (const table of SANDBOX_TABLES) {
      const before = snapshot.get(table)!
      const rows = await db.from(table).select('id')
      const added = rows.map((row) => row.id).filter((id) => !before.has(String(id)))
      for (let start = 0; start < added.length; start += 500) {
        await db
          .from(table)
          .whereIn('id', added.slice(start, start + 500))
          .delete()
      }
    }
  }
}

/**
 * Removes what a test that spawns the real CLI committed (no global transaction can undo another
 * process's writes): the customers whose e-mail starts with `prefix`, their orders with ledger
 * rows, e-mails and release tasks, the products of those orders, and the release runs.
 */
export async function removeCommittedReleaseData(prefix: string) {
  const users = await User.query().where('email', 'like', `${prefix}%`)
  const userIds = users.map((user) => user.id)
  const orders = await Order.query().whereIn('user_id', userIds)
  const orderIds = orders.map((order) => order.id)
  const productIds = [...new Set(orders.map((order) => order.productId))]
  if (orderIds.length) {
    await db.from('order_events').whereIn('order_id', orderIds).delete()
    await db
      .from('audit_logs')
      .where('subject_type', 'order')
      .whereIn(
        'subject_id',
        orders.map((order) => order.publicId)
      )
      .delete()
    await db.from('payment_ledger').whereIn('order_id', orderIds).delete()
    await db.from('email_messages').whereIn('order_id', orderIds).delete()
    await db.from('release_tasks').whereIn('order_id', orderIds).delete()
    await db.from('orders').whereIn('id', orderIds).delete()
  }
  if (userIds.length) await db.from('payment_ledger').whereIn('user_id', userIds).delete()
  await db.from('email_messages').where('to_address', 'like', `${prefix}%`).delete()
  await User.query().where('email', 'like', `${prefix}%`).delete()
  if (productIds.length) await Product.query().whereIn('id', productIds).delete()
  await db.from('release_runs').delete()
}

/**
 * For tests that run workers on committed data: removes what an earlier run under `prefix` left,
 * then returns the cleanup of what this test commits (call it once the workers have stopped): its
 * customers with their orders, ledger rows, timelines and e-mails, the products whose slug carries
 * the prefix (one whose order was never placed too), locks taken since and not released (a job
 * cut short), and the sandbox gateway's rows.
 */
export async function committedDataUnder(prefix: string) {
  const removeOwnRows = async () => {
    await removeCommittedReleaseData(prefix)
    await Product.query().where('slug', 'like', `${prefix}%`).delete()
  }
  await removeOwnRows()
  const restoreSandbox = await sandboxSnapshot()
  const lockKeys = async () => {
    const rows = await db.from(LOCK_TABLE).select('key')
    return rows.map((row) => row.key as string)
  }
  const locksBefore = new Set(await lockKeys())
  return async () => {
    await removeOwnRows()
    const locksNow = await lockKeys()
    const added = locksNow.filter((key) => !locksBefore.has(key))
    if (added.length) await db.from(LOCK_TABLE).whereIn('key', added).delete()
    await restoreSandbox()
  }
}

/**
 * A product released at Kith ($235 with shipping) and then New Balance ($219.99), its release
 * three days off (the factory's) unless `overrides` say otherwise: a slot's retailers to choose.
 */
export async function twoRetailerProduct(overrides: Record<string, unknown> = {}) {
  const product = await productFor({ totalStock: 10, stockTaken: 0, ...overrides })
  const rows = [
    { retailer: 'kith', price_cents: 23_500, url: 'https://kith.com/products/990v6' },
    { retailer: 'newbalance', price_cents: 21_999, url: 'https://www.newbalance.com/990v6' },
  ]
  for (const [position, row] of rows.entries()) {
    await db
      .table('product_retailers')
      .insert({ product_id: product.id, position, ...row, created_at: sqlTime() })
  }
  await db.from('products').where('id', product.id).update({ retailer: 'kith' })
  return product
}
