import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import { randomUUID } from 'node:crypto'
import User from '#accounts/models/user'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import type Profile from '#profiles/models/profile'
import { orderSettlement } from '#payments/services/order_settlement'
import { productFor, profileFor, saveCardFor } from '#tests/helpers'

/*
| Real concurrency: these tests do not run in the global transaction (it would serialise every
| request on one connection); they create their own rows and delete them afterwards. They run
| on whichever database the suite runs on (SQLite by default, MariaDB with DB_CONNECTION=mysql).
*/

type Buyer = { user: User; token: string; profile: Profile }

async function buyers(count: number): Promise<Buyer[]> {
  const password = await hash.make('correct-horse-battery')
  const stamp = Date.now().toString(36)
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
  const emails = Array.from({ length: count }, (_, index) => `rush-${stamp}-${index}@example.test`)
  await db.table('users').multiInsert(
    emails.map((email, index) => ({
      uuid: randomUUID(),
      email,
      password,
      name: `Rush Buyer ${index}`,
      role: 'customer',
      created_at: now,
      updated_at: now,
    }))
  )
  const users = await User.query().whereIn('email', emails).orderBy('id', 'asc')
  const result: Buyer[] = []
  for (const user of users) {
    await saveCardFor(user)
    const accessToken = await User.accessTokens.create(user)
    const token = accessToken.value!.release()
    result.push({ user, token, profile: await profileFor(user) })
  }
  return result
}

async function cleanUp(users: User[], products: Product[]) {
  const userIds = users.map((user) => user.id)
  const uuids = users.map((user) => user.uuid)
  const customers = await db.from('sandbox_customers').whereIn('reference', uuids)
  const customerIds = customers.map((row) => row.id)
  const tokenEntries = await db
    .from('payment_ledger')
    .whereIn('user_id', userIds)
    .where('gateway_ref', 'like', 'tok_%')
  const tokenIds = tokenEntries.map((row) => row.gateway_ref)
  await db.from('orders').whereIn('user_id', userIds).delete()
  await db.from('email_messages').whereIn('user_id', userIds).delete()
  await db.from('payment_ledger').whereIn('user_id', userIds).delete()
  await db.from('sandbox_payment_methods').whereIn('customer_id', customerIds).delete()
  await db.from('sandbox_customers').whereIn('id', customerIds).delete()
  await db.from('sandbox_tokens').whereIn('id', tokenIds).delete()
  await db.from('users').whereIn('id', userIds).delete()
  await db
    .from('products')
    .whereIn(
      'id',
      products.map((product) => product.id)
    )
    .delete()
}

test.group('Checkout under concurrency', () => {
  test('200 simultaneous checkouts at a 50-slot product sell exactly 50', async ({
    client,
    assert,
  }) => {
    const crowd = await buyers(200)
    const product = await productFor({ totalStock: 50, stockTaken: 0 })
    try {
      const responses = await Promise.all(
        crowd.map(({ token, profile }) =>
          client.post('/api/checkout/withprofile').bearerToken(token).json({
            productId: product.id,
            style: 'Black',
            size: '9',
            profileId: profile.publicId,
          })
        )
      )
      const statuses = responses.map((response) => response.status())
      assert.isTrue(
        statuses.every((status) => status < 500),
        `no 5xx: ${statuses.filter((s) => s >= 500).length}`
      )
      assert.equal(statuses.filter((status) => status === 201).length, 50)
      const refused = responses.filter((response) => response.status() !== 201)
      assert.lengthOf(refused, 150)
      for (const response of refused) {
        assert.equal(response.status(), 409)
        assert.equal(response.body().code, 'sold_out')
      }

      await product.refresh()
      assert.equal(product.stockTaken, 50)
      const shown = await client.get(`/api/products/${product.id}`)
      assert.equal(shown.body().stockTaken, 50)
      const orders = await Order.query().where('product_id', product.id)
      assert.lengthOf(orders, 50)
      assert.lengthOf(new Set(orders.map((order) => order.userId)), 50)
    } finally {
      await cleanUp(
        crowd.map(({ user }) => user),
        [product]
      )
    }
  }).timeout(120_000)

  test('orders failing at once while others buy the same product all finish, stock exact', async ({
    client,
    assert,
  }) => {
    const crowd = await buyers(60)
    const product = await productFor({ totalStock: 100, stockTaken: 0 })
    const [early, late] = [crowd.slice(0, 30), crowd.slice(30)]
    const checkout = ({ token, profile }: Buyer) =>
      client.post('/api/checkout/withprofile').bearerToken(token).json({
        productId: product.id,
        style: 'Black',
        size: '9',
        profileId: profile.publicId,
      })
    try {
      for (const response of await Promise.all(early.map(checkout))) response.assertStatus(201)
      const bought = await Order.query().where('product_id', product.id)
      // Every failure gives its slot back (the product is not released) while the late buyers
      // take theirs: the two must not wait on each other's rows in opposite orders.
      const [failures, responses] = await Promise.all([
        Promise.allSettled(
          bought.map((order) => orderSettlement.fail(order.id, { reason: 'Retailer declined.' }))
        ),
        Promise.all(late.map(checkout)),
      ])
      const refused = failures.filter((result) => result.status === 'rejected')
      assert.deepEqual(
        refused.map((result) => String((result as PromiseRejectedResult).reason).slice(0, 120)),
        []
      )
      assert.deepEqual(
        responses.map((response) => response.status()),
        late.map(() => 201)
      )
      await product.refresh()
      assert.equal(product.stockTaken, 30)
      const failed = await Order.query().where('product_id', product.id).where('status', 'fail')
      assert.lengthOf(failed, 30)
      assert.isTrue(failed.every((order) => order.slotReturned))
    } finally {
      await cleanUp(
        crowd.map(({ user }) => user),
        [product]
      )
    }
  }).timeout(120_000)

  test('the same profile twice at once makes one order and one duplicate', async ({
    client,
    assert,
  }) => {
    const [buyer] = await buyers(1)
    const product = await productFor({ totalStock: 50 })
    try {
      for (let round = 0; round < 5; round++) {
        const responses = await Promise.all(
          ['9', '10'].map((size) =>
            client.post('/api/checkout/withprofile').bearerToken(buyer.token).json({
              productId: product.id,
              style: 'Black',
              size,
              profileId: buyer.profile.publicId,
            })
          )
        )
        const statuses = responses.map((response) => response.status()).sort()
        assert.deepEqual(statuses, round === 0 ? [201, 409] : [409, 409])
        const duplicates = responses.filter((response) => response.status() === 409)
        for (const duplicate of duplicates) assert.equal(duplicate.body().code, 'duplicate')
      }
      await product.refresh()
      assert.equal(product.stockTaken, 1)
      assert.lengthOf(await Order.query().where('product_id', product.id), 1)
    } finally {
      await cleanUp([buyer.user], [product])
    }
  })
})
