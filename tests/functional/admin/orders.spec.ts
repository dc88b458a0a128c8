import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import testUtils from '@adonisjs/core/services/test_utils'
import { adminWithToken } from '#tests/helpers'
import { ProductFactory } from '#database/factories/product_factory'
import { UserFactory } from '#database/factories/user_factory'
import { notifications } from '#notifications/services/notification_service'
import { auditLog } from '#core/services/audit_log_service'
import { orderNumber } from '#orders/services/order_numbers'
import { makeOrder } from './fixtures.js'

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value))

test.group('Admin orders (read side)', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('GET /api/admin/orders lists orders newest first with public ids', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const older = await makeOrder({ createdAt: DateTime.now().minus({ hours: 2 }) })
    const newer = await makeOrder({ status: 'fail' })
    const response = await client.get('/api/admin/orders').bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.header('content-range'), 'orders 0-1/2')
    const [first, second] = response.body()
    assert.equal(first.id, newer.publicId)
    assert.equal(second.id, older.publicId)
    assert.equal(first.statusLabel, 'Not secured')
    assert.match(first.id, /^[0-9a-f-]{36}$/)
    assert.notProperty(first, 'acoVault')
    assert.notProperty(first, 'userId')
    assert.notInclude(JSON.stringify(response.body()), 'sealed-test-blob')
  })

  test('every order status has its label, a draw entry’s included', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const { ORDER_STATUSES, ORDER_STATUS_LABELS } = await import('#shared/vocabulary')
    for (const status of ORDER_STATUSES) {
      const order = await makeOrder({ status })
      const response = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
      response.assertStatus(200)
      assert.equal(response.body().statusLabel, ORDER_STATUS_LABELS[status], status)
      assert.notEqual(response.body().statusLabel, status, `${status} has a label of its own`)
    }
    assert.equal(ORDER_STATUS_LABELS.entered, 'Entered')
    // A failed order was never charged: not "Refunded" (kept for a fee charged and given back).
    assert.equal(ORDER_STATUS_LABELS.fail, 'Not secured')
  })

  test('filters: status, product, customer, search by e-mail or order id', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.create()
    const buyer = await UserFactory.merge({ email: 'sneakerhead@example.test' }).create()
    const mine = await makeOrder({ product, user: buyer, status: 'pending' })
    await makeOrder({ product, status: 'success' })
    await makeOrder({ status: 'pending' })

    const byStatus = await client
      .get(`/api/admin/orders?filter=${q({ status: ['pending', 'processing'] })}`)
      .bearerToken(token)
    assert.equal(byStatus.header('content-range'), 'orders 0-1/2')

    const byProduct = await client
      .get(`/api/admin/orders?filter=${q({ productId: product.id, status: 'pending' })}`)
      .bearerToken(token)
    assert.deepEqual(
      byProduct.body().map((row: { id: string }) => row.id),
      [mine.publicId]
    )

    const byEmail = await client
      .get(`/api/admin/orders?filter=${q({ q: 'SNEAKERHEAD@' })}`)
      .bearerToken(token)
    assert.deepEqual(
      byEmail.body().map((row: { id: string }) => row.id),
      [mine.publicId]
    )

    const byOrderId = await client
      .get(`/api/admin/orders?filter=${q({ q: mine.publicId.slice(0, 8) })}`)
      .bearerToken(token)
    assert.include(
      byOrderId.body().map((row: { id: string }) => row.id),
      mine.publicId
    )

    // The confirmation number the customer quotes, in any case.
    const byNumber = await client
      .get(`/api/admin/orders?filter=${q({ q: orderNumber(mine.id).toLowerCase() })}`)
      .bearerToken(token)
    assert.deepEqual(
      byNumber.body().map((row: { id: string }) => row.id),
      [mine.publicId]
    )

    const byCustomer = await client
      .get(`/api/admin/orders?filter=${q({ customerId: buyer.uuid })}`)
      .bearerToken(token)
    assert.equal(byCustomer.body()[0].customerId, buyer.uuid)
    assert.lengthOf(byCustomer.body(), 1)

    const badStatus = await client
      .get(`/api/admin/orders?filter=${q({ status: 'shipped' })}`)
      .bearerToken(token)
    badStatus.assertStatus(400)
    assert.match(badStatus.body().errors.filter, /pending, processing, success, fail, cancelled/)
  })

  test('one order shows its e-mail history and audit trail', async ({ client, assert }) => {
    const { token, user: admin } = await adminWithToken()
    const order = await makeOrder()
    await notifications.send({
      to: order.email,
      template: 'order_placed',
      message: {
        subject: 'Your slot is secured',
        text: 'See you on release day.',
        html: '<p>Hi</p>',
      },
      orderId: order.id,
      userId: order.userId,
    })
    await auditLog.record({
      actor: { id: admin.id, email: admin.email },
      action: 'order.aco_export',
      subjectType: 'order',
      subjectId: order.publicId,
      reason: 'bot import for card 4242 4242 4242 4242',
    })
    const response = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.id, order.publicId)
    assert.lengthOf(body.emails, 1)
    assert.equal(body.emails[0].subject, 'Your slot is secured')
    assert.equal(body.emails[0].orderId, order.publicId)
    assert.lengthOf(body.auditTrail, 1)
    assert.equal(body.auditTrail[0].reason, 'bot import for card **** 4242')
    assert.equal(body.profileName, 'gone')
  })

  test("an order shows the buyer's sizes in order, retailers and price cap", async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const chosen = await makeOrder({
      size: '10',
      choices: {
        sizeLadder: ['10', '10.5', '9.5'],
        retailerChoice: ['kith'],
        maxItemPriceCents: 25_000,
      },
    })
    const plain = await makeOrder({ size: '10' })

    const shown = await client.get(`/api/admin/orders/${chosen.publicId}`).bearerToken(token)
    shown.assertStatus(200)
    assert.deepInclude(shown.body(), {
      size: '10',
      sizes: ['10', '10.5', '9.5'],
      retailers: ['kith'],
      maxItemPriceCents: 25_000,
    })
    const listed = await client.get('/api/admin/orders').bearerToken(token)
    const rows = Object.fromEntries(
      listed.body().map((row: { id: string }) => [row.id, row] as const)
    )
    assert.deepInclude(rows[chosen.publicId], { sizes: ['10', '10.5', '9.5'], retailers: ['kith'] })
    // No choices: the one size, every retailer of the release, no cap.
    assert.deepInclude(rows[plain.publicId], {
      sizes: ['10'],
      retailers: null,
      maxItemPriceCents: null,
    })
  })

  test('an id that is not a UUID is not an order route', async ({ client }) => {
    const { token } = await adminWithToken()
    const response = await client.get('/api/admin/orders/12').bearerToken(token)
    response.assertStatus(404)
  })
})
