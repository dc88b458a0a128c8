import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import DemoSeeder, { DEMO_CUSTOMER } from '#database/seeders/demo_seeder'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import Order from '#orders/models/order'
import { customerWithCard, placeHolds, productFor, profileFor } from '#tests/helpers'
import { paymentKeys } from '#payments/services/payment_service'

test.group('Customer orders', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('lists the customer’s own orders, newest first, with the spec fields', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const first = await productFor({ title: 'First Drop' })
    const second = await productFor({
      title: 'Second Drop',
      sizeType: 'OS',
      sizes: ['OS'],
      styles: 'OS',
    })
    for (const product of [first, second]) {
      const bought = await client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({
          productId: product.id,
          style: product.styleList[0],
          size: product.sizeType === 'OS' ? 'OS' : '9',
          profileId: profile.publicId,
        })
      bought.assertStatus(201)
    }
    // Same second for both: the older one is pushed back to make the order observable.
    await db
      .from('orders')
      .where('product_id', first.id)
      .update({ created_at: '2026-01-01 10:00:00' })

    const other = await customerWithCard()
    const theirProfile = await profileFor(other.user)
    await client.post('/api/checkout/withprofile').bearerToken(other.token).json({
      productId: first.id,
      style: 'Black',
      size: '9',
      profileId: theirProfile.publicId,
    })

    const response = await client.get('/api/user/orders').bearerToken(token)
    response.assertStatus(200)
    const orders = response.body()
    assert.lengthOf(orders, 2)
    assert.deepEqual(
      orders.map((order: { productTitle: string }) => order.productTitle),
      ['Second Drop', 'First Drop']
    )
    assert.isBelow(Date.parse(orders[1].orderDate), Date.parse(orders[0].orderDate))
    assert.match(orders[1].orderDate, /^2026-01-01T/)
    assert.sameMembers(Object.keys(orders[0]), [
      'orderId',
      'orderNumber',
      'productId',
      'productTitle',
      'price',
      'priceCents',
      'basePriceCents',
      'promoCode',
      'promoPercent',
      'style',
      'size',
      'sizes',
      'retailers',
      'maxItemPriceCents',
      'email',
      'name',
      'status',
      'statusLabel',
      'outcomeWords',
      'statusReason',
      'orderDate',
      'profileId',
      'confirmationNumber',
      'hold',
      'fee',
      'drawEntryId',
    ])
    const text = JSON.stringify(orders)
    assert.notInclude(text, '4242424242424242')
    assert.notInclude(text, 'acoVault')
    assert.notInclude(text, 'pi_')
  })

  test('anonymous callers get 401', async ({ client }) => {
    const response = await client.get('/api/user/orders')
    response.assertStatus(401)
  })

  test('the demo customer buys a slot through the API and the hold shows in the ledger', async ({
    client,
    assert,
  }) => {
    await new DemoSeeder(db.connection()).run()
    const login = await client.post('/login').json(DEMO_CUSTOMER)
    login.assertStatus(200)
    const token = login.body().token

    const info = await client.get('/api/user/info').bearerToken(token)
    // Not the README's test card (4242), which newcomers save: see the demo seed's test.
    info.assertBodyContains({ billingLast4: '4444', cardBrand: 'mastercard' })
    const profiles = await client.get('/api/user/profiles').bearerToken(token)
    const [profile] = profiles.body()
    const catalogue = await client.get('/api/products')
    const products = catalogue.body()
    const cap = products.find((product: { sizeType: string }) => product.sizeType === 'OS')

    const bought = await client.post('/api/checkout/withprofile').bearerToken(token).json({
      productId: cap.productId,
      style: 'OS',
      size: 'OS',
      profileId: profile.profileId,
      promoCode: 'DROP10',
    })
    bought.assertStatus(201)
    assert.equal(bought.body().order.priceCents, Math.round(cap.priceCents * 0.9))

    await placeHolds()
    const order = await Order.findByOrFail('publicId', bought.body().order.orderId)
    const hold = await PaymentLedgerEntry.findByOrFail('idempotencyKey', paymentKeys.hold(order))
    assert.include(hold.toJSON(), { kind: 'hold', status: 'succeeded', amountCents: 100 })

    const listed = await client.get('/api/user/orders').bearerToken(token)
    assert.equal(listed.body()[0].hold.status, 'placed')
  })
})
