import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import type Product from '#catalog/models/product'
import { slotStock } from '#catalog/services/slot_stock'
import { withDriverSession } from '#core/services/driver_session'
import { orderLifecycle, type NewOrder } from '#orders/services/order_lifecycle'
import type Profile from '#profiles/models/profile'
import { customerWithToken, productFor, profileFor } from '#tests/helpers'

/*
| OrderLifecycle.openWithSlot: the stored procedure take_slot_and_open_order (migration 0500),
| MariaDB/MySQL only. It must keep the rules of the transaction path it replaces on the hot path
| (SlotStock.take, then OrderLifecycle.open), under the tests' global transaction (a savepoint)
| and on its own connection (its own transaction).
*/
const onMysql = db.connection().dialect.name === 'mysql'
const MYSQL_ONLY = 'stored procedures exist on MariaDB/MySQL only'

async function buyer() {
  const { user } = await customerWithToken()
  return { user, profile: await profileFor(user) }
}

function newOrder(user: { id: number; email: string }, profile: Profile, product: Product) {
  return {
    userId: user.id,
    productId: product.id,
    profileId: profile.publicId,
    productTitle: product.title,
    basePriceCents: product.priceCents,
    priceCents: product.priceCents,
    promoCode: null,
    promoPercent: null,
    style: 'Black',
    size: '9',
    sizeLadder: '["9","9.5","8.5"]',
    retailerChoice: '["kith","nike"]',
    maxItemPriceCents: 25_000,
    email: user.email,
    name: 'Zoë Slot 🚀',
    acoVault: 'sealed-snapshot',
    holdAmountCents: 100,
  } satisfies NewOrder
}

const openWithSlot = (order: NewOrder) =>
  withDriverSession((session) => orderLifecycle.openWithSlot(order, session))

async function stockTaken(productId: number) {
  const row = await db.from('products').where('id', productId).select('stock_taken').firstOrFail()
  return Number(row.stock_taken)
}

async function ordersOf(productId: number) {
  return db.from('orders').where('product_id', productId).orderBy('id')
}

test.group('Slot and order in one call, inside the global transaction', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('writes the same order row as the transaction path, and takes one slot', async ({
    assert,
  }) => {
    const { user, profile } = await buyer()
    const called = await productFor({ totalStock: 5, stockTaken: 2 })
    const transacted = await productFor({ totalStock: 5, stockTaken: 2 })

    const opened = await openWithSlot(newOrder(user, profile, called))
    const reference = await withDriverSession((session) =>
      session.transaction(async () => {
        assert.isTrue(await slotStock.take(transacted.id, session))
        return orderLifecycle.open(newOrder(user, profile, transacted), session)
      })
    )

    assert.isNotNull(opened)
    assert.equal(await stockTaken(called.id), 3)
    const [row] = await ordersOf(called.id)
    const [expected] = await ordersOf(transacted.id)
    assert.equal(row.id, opened!.id)
    assert.equal(row.public_id, opened!.publicId)
    const differing = ['id', 'public_id', 'product_id', 'product_title', 'created_at', 'updated_at']
    const comparable = (order: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(order).filter(([key]) => !differing.includes(key)))
    assert.deepEqual(comparable(row), comparable(expected))
    // The buyer's ladder, retailers and cap reach the row through the procedure as well.
    assert.equal(row.size_ladder, '["9","9.5","8.5"]')
    assert.equal(row.retailer_choice, '["kith","nike"]')
    assert.equal(Number(row.max_item_price_cents), 25_000)
    assert.equal(reference.status, 'pending')
    assert.equal(String(row.created_at), String(row.updated_at))
    assert.equal(opened!.holdStatus, 'queued')
  }).skip(!onMysql, MYSQL_ONLY)

  test('no slot left, a released or an unavailable product: null and nothing written', async ({
    assert,
  }) => {
    const { user, profile } = await buyer()
    const products = [
      await productFor({ totalStock: 2, stockTaken: 2 }),
      await productFor({
        totalStock: 5,
        stockTaken: 0,
        releaseAt: DateTime.now().minus({ minutes: 1 }),
      }),
      await productFor({ totalStock: 5, stockTaken: 0, avail: false }),
    ]
    for (const product of products) {
      assert.isNull(await openWithSlot(newOrder(user, profile, product)))
      assert.equal(await stockTaken(product.id), product.stockTaken)
      assert.lengthOf(await ordersOf(product.id), 0)
    }
  }).skip(!onMysql, MYSQL_ONLY)

  test('a duplicate active order undoes its slot and leaves the outer transaction usable', async ({
    assert,
  }) => {
    const { user, profile } = await buyer()
    const product = await productFor({ totalStock: 5, stockTaken: 0 })
    assert.isNotNull(await openWithSlot(newOrder(user, profile, product)))

    const error = await openWithSlot(newOrder(user, profile, product)).catch((caught) => caught)
    assert.equal(error?.errno, 1062)
    assert.equal(await stockTaken(product.id), 1)
    assert.lengthOf(await ordersOf(product.id), 1)
    const other = await profileFor(user, { profileName: 'Office' })
    assert.isNotNull(await openWithSlot(newOrder(user, other, product)))
    assert.equal(await stockTaken(product.id), 2)
  }).skip(!onMysql, MYSQL_ONLY)
})

test.group('Slot and order in one call, on its own connection', () => {
  test('commits, and a duplicate rolls back its slot and ends its transaction', async ({
    assert,
  }) => {
    const { user, profile } = await buyer()
    const product = await productFor({ totalStock: 5, stockTaken: 0 })
    try {
      assert.isNotNull(await openWithSlot(newOrder(user, profile, product)))
      await withDriverSession(async (session) => {
        const error = await orderLifecycle
          .openWithSlot(newOrder(user, profile, product), session)
          .catch((caught) => caught)
        assert.equal(error?.errno, 1062)
        // The failed call left no transaction open on the pooled connection: a write after it
        // is committed at once, so a ROLLBACK does not take it back.
        await session.run('UPDATE products SET total_stock = total_stock + 1 WHERE id = ?', [
          product.id,
        ])
        await session.run('ROLLBACK')
      })
      const after = await db.from('products').where('id', product.id).firstOrFail()
      assert.equal(after.total_stock, 6)
      assert.equal(await stockTaken(product.id), 1)
      assert.lengthOf(await ordersOf(product.id), 1)
    } finally {
      await db.from('orders').where('product_id', product.id).delete()
      await db.from('products').where('id', product.id).delete()
      await db.from('users').where('id', user.id).delete()
    }
  }).skip(!onMysql, MYSQL_ONLY)
})
