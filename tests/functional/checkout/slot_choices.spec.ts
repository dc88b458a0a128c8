import { DateTime } from 'luxon'
import { twoRetailerProduct } from '#tests/support/release'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import { sqlTime } from '#core/helpers/sql_time'
import { customerWithCard, profileFor } from '#tests/helpers'
import { drawProduct } from '#tests/support/draws'

async function buyer() {
  const customer = await customerWithCard()
  const profile = await profileFor(customer.user)
  return { ...customer, profile }
}

async function stockTaken(productId: number) {
  const row = await db.from('products').where('id', productId).select('stock_taken').firstOrFail()
  return Number(row.stock_taken)
}

async function ordersOf(productId: number) {
  return db.from('orders').where('product_id', productId)
}

test.group('Checkout: a slot with a size ladder, retailers and a price cap', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('one slot, one order and one $1.00 check for a three-size ladder at two retailers', async ({
    client,
    assert,
  }) => {
    const { token, profile } = await buyer()
    const product = await twoRetailerProduct()

    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({
        productId: product.id,
        style: 'Black',
        size: '10',
        sizes: ['10', '10.5', '9.5'],
        retailers: ['newbalance', 'kith'],
        maxItemPriceCents: 25_000,
        profileId: profile.publicId,
      })

    response.assertStatus(201)
    assert.deepInclude(response.body().order, {
      size: '10',
      sizes: ['10', '10.5', '9.5'],
      retailers: ['newbalance', 'kith'],
      maxItemPriceCents: 25_000,
    })
    assert.equal(await stockTaken(product.id), 1, 'one slot of stock, whatever the ladder')
    const orders = await ordersOf(product.id)
    assert.lengthOf(orders, 1)
    assert.equal(Number(orders[0].hold_amount_cents), 100, 'one $1.00 check')

    const listed = await client.get('/api/user/orders').bearerToken(token)
    listed.assertStatus(200)
    assert.deepInclude(listed.body()[0], {
      sizes: ['10', '10.5', '9.5'],
      retailers: ['newbalance', 'kith'],
      maxItemPriceCents: 25_000,
    })
  })

  test('a slot without choices is its one size at every retailer, with no cap', async ({
    client,
    assert,
  }) => {
    const { token, profile } = await buyer()
    const product = await twoRetailerProduct()
    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
    response.assertStatus(201)
    assert.deepInclude(response.body().order, {
      sizes: ['9'],
      retailers: null,
      maxItemPriceCents: null,
    })
  })

  test('a ladder, retailers or cap out of the rules is a 422 naming the field, with nothing taken', async ({
    client,
    assert,
  }) => {
    const { token, profile } = await buyer()
    const product = await twoRetailerProduct()
    const refused: [Record<string, unknown>, string, RegExp][] = [
      [{ sizes: ['10.5', '10'] }, 'sizes', /your size first/],
      [{ sizes: ['10', '27'] }, 'sizes', /sizes of this product/],
      [{ sizes: ['10', '10.5', '10.5'] }, 'sizes', /each once/],
      [{ sizes: ['10', '10.5', '11', '11.5', '12', '12.5'] }, 'sizes', /up to 5/],
      [{ sizes: '10' }, 'sizes', /up to 5/],
      [{ sizes: [{ size: '10' }] }, 'sizes', /up to 5/],
      [{ retailers: ['footlocker'] }, 'retailers', /retailers this release drops at/],
      [{ retailers: [] }, 'retailers', /retailers this release drops at/],
      [{ maxItemPriceCents: 99 }, 'maxItemPriceCents', /from \$1\.00/],
      [{ maxItemPriceCents: 250.5 }, 'maxItemPriceCents', /from \$1\.00/],
      [{ maxItemPriceCents: '25000' }, 'maxItemPriceCents', /from \$1\.00/],
      [
        { maxItemPriceCents: 20_000 },
        'maxItemPriceCents',
        /below the price at every retailer you accept \(the lowest is \$219\.99\)/,
      ],
      [
        { retailers: ['kith'], maxItemPriceCents: 22_000 },
        'maxItemPriceCents',
        /the lowest is \$235\.00/,
      ],
    ]
    for (const [choices, field, message] of refused) {
      const response = await client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({
          productId: product.id,
          style: 'Black',
          size: '10',
          profileId: profile.publicId,
          ...choices,
        })
      response.assertStatus(422)
      assert.equal(response.body().code, 'invalid_slot_choices', JSON.stringify(choices))
      assert.match(response.body().errors[field], message, JSON.stringify(choices))
    }
    assert.equal(await stockTaken(product.id), 0)
    assert.lengthOf(await ordersOf(product.id), 0)
  })

  test('choices sent with a product id that is no number are a 4xx, never a 500', async ({
    client,
    assert,
  }) => {
    const { token, profile } = await buyer()
    for (const productId of ['\ud800', 'abc', '1e400', -3, 2 ** 60]) {
      const response = await client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({ productId, style: 'Black', size: '10', sizes: ['10'], profileId: profile.publicId })
      assert.isAtLeast(response.status(), 400, String(productId))
      assert.isBelow(response.status(), 500, String(productId))
    }
  })

  test('the buyer changes the ladder, retailers and cap until the release starts', async ({
    client,
    assert,
  }) => {
    const { token, profile } = await buyer()
    const product = await twoRetailerProduct()
    const bought = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '10', profileId: profile.publicId })
    bought.assertStatus(201)
    const orderId = bought.body().order.orderId

    const changed = await client
      .post(`/api/user/orders/${orderId}/choices`)
      .bearerToken(token)
      .json({ sizes: ['10', '9.5'], retailers: ['kith'], maxItemPriceCents: 24_000 })
    changed.assertStatus(200)
    assert.deepInclude(changed.body().order, {
      size: '10',
      sizes: ['10', '9.5'],
      retailers: ['kith'],
      maxItemPriceCents: 24_000,
    })

    // Absent keeps a choice; null goes back to the default.
    const reset = await client
      .post(`/api/user/orders/${orderId}/choices`)
      .bearerToken(token)
      .json({ retailers: null, maxItemPriceCents: null })
    reset.assertStatus(200)
    assert.deepInclude(reset.body().order, {
      sizes: ['10', '9.5'],
      retailers: null,
      maxItemPriceCents: null,
    })

    const order = await db.from('orders').where('public_id', orderId).firstOrFail()
    const events = await db.from('order_events').where('order_id', order.id)
    assert.deepEqual(
      events.map((event) => event.kind),
      ['choices_changed', 'choices_changed']
    )

    const badChange = await client
      .post(`/api/user/orders/${orderId}/choices`)
      .bearerToken(token)
      .json({ sizes: ['9.5', '10'] })
    badChange.assertStatus(422)

    const stranger = await buyer()
    const notTheirs = await client
      .post(`/api/user/orders/${orderId}/choices`)
      .bearerToken(stranger.token)
      .json({ sizes: ['10'] })
    notTheirs.assertStatus(404)

    // The release starts (its time is now past): the choices are what the run will send.
    await db
      .from('products')
      .where('id', product.id)
      .update({ release_at: sqlTime(DateTime.now().minus({ minutes: 1 }).toJSDate()) })
    const late = await client
      .post(`/api/user/orders/${orderId}/choices`)
      .bearerToken(token)
      .json({ sizes: ['10'] })
    late.assertStatus(409)
    assert.equal(late.body().code, 'choices_closed')
  })

  test('a retailer releasing earlier than the product closes the choices at its own time', async ({
    client,
    assert,
  }) => {
    const { token, profile } = await buyer()
    const product = await twoRetailerProduct()
    const bought = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '10', profileId: profile.publicId })
    bought.assertStatus(201)
    await db
      .from('product_retailers')
      .where('product_id', product.id)
      .where('retailer', 'newbalance')
      .update({ release_at: sqlTime(DateTime.now().minus({ minutes: 1 }).toJSDate()) })

    const late = await client
      .post(`/api/user/orders/${bought.body().order.orderId}/choices`)
      .bearerToken(token)
      .json({ sizes: ['10', '11'] })
    late.assertStatus(409)
    assert.equal(late.body().code, 'choices_closed')
  })

  test('an order a release run has claimed keeps the choices it was sent with', async ({
    client,
    assert,
  }) => {
    const { token, profile } = await buyer()
    const product = await twoRetailerProduct()
    const bought = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '10', profileId: profile.publicId })
    bought.assertStatus(201)
    const orderId = bought.body().order.orderId
    await db.from('orders').where('public_id', orderId).update({ status: 'processing' })

    const late = await client
      .post(`/api/user/orders/${orderId}/choices`)
      .bearerToken(token)
      .json({ sizes: ['10', '11'] })
    late.assertStatus(409)
    const row = await db.from('orders').where('public_id', orderId).firstOrFail()
    assert.isNull(row.size_ladder)
  })
})

test.group('Checkout: a draw keeps one entry per person, whatever the ladder', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a second entry with another ladder and another profile is refused; the first keeps its ladder', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct({ totalStock: 5 })
    const { user, token } = await customerWithCard()
    const first = await profileFor(user)
    const second = await profileFor(user, { profileName: 'Second' })
    const entered = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({
        productId: product.id,
        style: 'Black',
        size: '10',
        sizes: ['10', '10.5'],
        profileId: first.publicId,
      })
    entered.assertStatus(201)
    assert.deepInclude(entered.body().order, { status: 'entered', sizes: ['10', '10.5'] })

    const again = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({
        productId: product.id,
        style: 'Black',
        size: '9',
        sizes: ['9', '8.5', '9.5'],
        profileId: second.publicId,
      })
    assert.equal(again.status(), 409)
    const entries = await db.from('orders').where('product_id', product.id)
    assert.lengthOf(entries, 1)
  })
})
