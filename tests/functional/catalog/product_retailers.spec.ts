import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import AuditLog from '#core/models/audit_log'
import Product from '#catalog/models/product'
import { ProductFactory } from '#database/factories/product_factory'
import DemoSeeder from '#database/seeders/demo_seeder'
import { adminWithToken } from '#tests/helpers'
import { productBody } from '../admin/fixtures.js'

const NB_RELEASE = DateTime.utc(2031, 5, 2, 15, 0)

/** A collaboration released at Kith, and a day later at New Balance for less. */
function twoRetailers() {
  return [
    { retailer: 'kith', priceCents: 23500, url: 'https://kith.com/products/990v6-daytona' },
    {
      retailer: 'newbalance',
      priceCents: 21999,
      releaseAt: NB_RELEASE.toISO(),
      url: 'https://www.newbalance.com/pd/990v6/U990KD6.html',
    },
  ]
}

async function rowsOf(productId: number) {
  return db
    .from('product_retailers')
    .where('product_id', productId)
    .orderBy('position')
    .select('id', 'position', 'retailer', 'price_cents', 'url')
}

/** [retailer, price] of each row, in order. */
async function listOf(productId: number) {
  const rows = await rowsOf(productId)
  return rows.map((row) => [row.retailer, row.price_cents])
}

async function countOf(table: string) {
  const [row] = await db.from(table).count('* as total')
  return Number(row.total)
}

test.group('Catalog: the retailers a product releases at', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a product is created with two retailers and read back', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ retailers: twoRetailers() }))
    created.assertStatus(201)
    const product = created.body()
    assert.equal(product.retailer, 'kith', 'the old field is the first of the list')
    assert.deepEqual(product.retailers, [
      {
        retailer: 'kith',
        name: 'Kith',
        releaseAt: null,
        priceCents: 23500,
        url: 'https://kith.com/products/990v6-daytona',
      },
      {
        retailer: 'newbalance',
        name: 'New Balance',
        releaseAt: product.retailers[1].releaseAt,
        priceCents: 21999,
        url: 'https://www.newbalance.com/pd/990v6/U990KD6.html',
      },
    ])
    assert.equal(DateTime.fromISO(product.retailers[1].releaseAt).toMillis(), NB_RELEASE.toMillis())

    const shown = await client.get(`/api/admin/products/${product.id}`).bearerToken(token)
    shown.assertStatus(200)
    assert.deepEqual(shown.body().retailers, product.retailers)
    const listed = await client
      .get('/api/admin/products')
      .qs({ filter: JSON.stringify({ id: [product.id] }) })
      .bearerToken(token)
    assert.deepEqual(listed.body()[0].retailers, product.retailers)

    const rows = await rowsOf(product.id)
    assert.deepEqual(
      rows.map((row) => [row.position, row.retailer, row.price_cents]),
      [
        [0, 'kith', 23500],
        [1, 'newbalance', 21999],
      ]
    )
    const stored = await Product.findOrFail(product.id)
    assert.equal(stored.retailer, 'kith')
  })

  test('an old client sending only `retailer` still works', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const spec = await client
      .post('/api/admin/products/create')
      .bearerToken(token)
      .json(productBody({ retailer: 'nike' }))
    spec.assertStatus(200)
    const product = spec.body().product
    assert.equal(product.retailer, 'nike')
    assert.deepEqual(product.retailers, [
      { retailer: 'nike', name: 'Nike', releaseAt: null, priceCents: null, url: null },
    ])

    // Another retailer replaces the first.
    const edited = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ retailer: 'adidas' })
    edited.assertStatus(200)
    assert.equal(edited.body().retailer, 'adidas')
    assert.deepEqual(await listOf(product.id), [['adidas', null]])

    // One already listed moves first, keeping its price.
    const listed = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ retailers: twoRetailers() })
    listed.assertStatus(200)
    const moved = await client
      .post('/api/admin/products/edit')
      .bearerToken(token)
      .json({ productId: product.id, retailer: 'newbalance' })
    moved.assertStatus(200)
    assert.equal(moved.body().product.retailer, 'newbalance')
    assert.deepEqual(await listOf(product.id), [
      ['newbalance', 21999],
      ['kith', 23500],
    ])

    // None at all: a product without a retailer, as before the list.
    const none = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ productTitle: 'No Retailer' }))
    none.assertStatus(201)
    assert.isNull(none.body().retailer)
    assert.deepEqual(none.body().retailers, [])
    const cleared = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ retailer: null })
    cleared.assertStatus(200)
    assert.deepEqual(cleared.body().retailers, [])
    assert.lengthOf(await rowsOf(product.id), 0)
  })

  test('each refused list is a clear 422 that writes nothing', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const kith = twoRetailers()[0]
    const eleven = Array.from({ length: 11 }, () => kith)
    const cases: Array<[unknown, string, RegExp]> = [
      [[], 'retailers', /from 1 to 10 retailers/],
      [eleven, 'retailers', /from 1 to 10 retailers/],
      [[kith, { ...kith, priceCents: 100 }], 'retailers', /listed once/],
      [[{ ...kith, retailer: '' }], 'retailers.0.retailer', /Retailer must be one of/],
      [[{ ...kith, retailer: 'amazon' }], 'retailers.0.retailer', /Retailer must be one of/],
      [[{ retailer: 'kith' }], 'retailers.0.priceCents', /Retail price \(cents\) is required/],
      [[{ ...kith, priceCents: -1 }], 'retailers.0.priceCents', /at least 0/],
      [[{ ...kith, priceCents: 19.99 }], 'retailers.0.priceCents', /whole number/],
      [[{ ...kith, priceCents: 10_000_001 }], 'retailers.0.priceCents', /at most 10000000/],
      [[{ ...kith, url: 'http://kith.com/x' }], 'retailers.0.url', /https:\/\/ address/],
      [[{ ...kith, url: 'kith dot com' }], 'retailers.0.url', /https:\/\/ address/],
      [[kith, { ...kith, retailer: 'nike', releaseAt: 'soon' }], 'retailers.1.releaseAt', /date/],
      ['kith', 'retailers', /must be a list/],
    ]
    for (const [retailers, field, message] of cases) {
      const response = await client
        .post('/api/admin/products')
        .bearerToken(token)
        .json(productBody({ retailers }))
      assert.equal(response.status(), 422, JSON.stringify(retailers))
      assert.equal(response.body().code, 'validation_failed')
      assert.match(response.body().errors[field] ?? '', message, JSON.stringify(response.body()))
    }
    assert.equal(await countOf('products'), 0)
    assert.equal(await countOf('product_retailers'), 0)

    // An edit refused the same way leaves the list as it was.
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ retailers: twoRetailers() }))
    const id = created.body().id
    for (const [retailers] of cases) {
      const response = await client
        .put(`/api/admin/products/${id}`)
        .bearerToken(token)
        .json({ productTitle: 'Renamed', retailers })
      assert.equal(response.status(), 422, JSON.stringify(retailers))
    }
    assert.deepEqual(await listOf(id), [
      ['kith', 23500],
      ['newbalance', 21999],
    ])
    const product = await Product.findOrFail(id)
    assert.equal(product.title, 'Air Max 1 Patta')
  })

  test('an edit replaces the list whole, or writes nothing', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ retailers: twoRetailers() }))
    const id = created.body().id
    const before = await rowsOf(id)

    const edited = await client
      .put(`/api/admin/products/${id}`)
      .bearerToken(token)
      .json({
        retailers: [
          { retailer: 'newbalance', priceCents: 20999 },
          { retailer: 'footlocker', priceCents: 22999, url: 'https://www.footlocker.com/x' },
        ],
      })
    edited.assertStatus(200)
    assert.equal(edited.body().retailer, 'newbalance')
    const after = await rowsOf(id)
    assert.deepEqual(
      after.map((row) => [row.position, row.retailer, row.price_cents, row.url]),
      [
        [0, 'newbalance', 20999, null],
        [1, 'footlocker', 22999, 'https://www.footlocker.com/x'],
      ]
    )
    assert.equal(after[0].id, before[1].id, 'a retailer kept keeps its row')
    const audit = await AuditLog.query()
      .where('action', 'product.update')
      .where('subject_id', String(id))
      .firstOrFail()
    assert.deepEqual(
      (audit.meta as any).changed.retailers.to.map((entry: { retailer: string }) => entry.retailer),
      ['newbalance', 'footlocker']
    )

    // Refused after validation (stock below the slots taken): neither the row nor the list.
    await db.from('products').where('id', id).update({ stock_taken: 30 })
    const refused = await client
      .put(`/api/admin/products/${id}`)
      .bearerToken(token)
      .json({
        totalStock: 10,
        productTitle: 'Renamed',
        retailers: [{ retailer: 'nike', priceCents: 1 }],
      })
    refused.assertStatus(422)
    assert.deepEqual(await rowsOf(id), after)
    const product = await Product.findOrFail(id)
    assert.equal(product.retailer, 'newbalance')
    assert.equal(product.title, 'Air Max 1 Patta')

    // A deleted product takes its list along.
    await db.from('products').where('id', id).update({ stock_taken: 0 })
    const deleted = await client.delete(`/api/admin/products/${id}`).bearerToken(token)
    deleted.assertStatus(200)
    assert.lengthOf(await rowsOf(id), 0)
  })

  test('the public product API carries the retailers', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const releaseAt = DateTime.utc(2031, 5, 1, 15, 0)
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ releaseAt: releaseAt.toISO(), retailers: twoRetailers() }))
    const id = created.body().id

    const page = await client.get(`/api/products/${id}`)
    page.assertStatus(200)
    const [kith, newBalance] = page.body().retailers
    assert.containsSubset(kith, { retailer: 'kith', name: 'Kith', priceCents: 23500 })
    // Without a time of its own, a retailer releases at the product's.
    assert.equal(DateTime.fromISO(kith.releaseAt).toMillis(), releaseAt.toMillis())
    assert.containsSubset(newBalance, {
      retailer: 'newbalance',
      name: 'New Balance',
      priceCents: 21999,
      url: 'https://www.newbalance.com/pd/990v6/U990KD6.html',
    })
    assert.equal(DateTime.fromISO(newBalance.releaseAt).toMillis(), NB_RELEASE.toMillis())

    const shop = await client.get('/api/products')
    const listed = shop.body().find((row: { productId: number }) => row.productId === id)
    assert.deepEqual(listed.retailers, page.body().retailers)

    // A product written without the list: its `retailer` alone, or none.
    const single = await ProductFactory.merge({ retailer: 'kith' }).create()
    const bare = await ProductFactory.create()
    const singlePage = await client.get(`/api/products/${single.id}`)
    assert.deepEqual(
      singlePage
        .body()
        .retailers.map((entry: { name: string; priceCents: number | null }) => [
          entry.name,
          entry.priceCents,
        ]),
      [['Kith', null]]
    )
    const barePage = await client.get(`/api/products/${bare.id}`)
    assert.deepEqual(barePage.body().retailers, [])
  })

  test('the demo seed releases the Kith x New Balance collaboration at both', async ({
    assert,
  }) => {
    await new DemoSeeder(db.connection()).run()
    const product = await Product.findByOrFail('slug', 'kith-new-balance-990v6-daytona')
    const rows = await rowsOf(product.id)
    assert.deepEqual(
      rows.map((row) => row.retailer),
      ['kith', 'newbalance']
    )
    assert.notEqual(rows[0].price_cents, rows[1].price_cents)
    assert.equal(product.retailer, 'kith')
    const total = await countOf('product_retailers')
    await new DemoSeeder(db.connection()).run()
    assert.equal(await countOf('product_retailers'), total, 'a second run adds nothing')
  }).timeout(60_000)
})
