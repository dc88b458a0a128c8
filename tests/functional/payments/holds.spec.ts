import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import EmailMessage from '#notifications/models/email_message'
import Order from '#orders/models/order'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { SandboxGateway } from '#payments/gateways/sandbox_gateway'
import { gateway, useGateway } from '#payments/services/gateway'
import { holdWorker } from '#payments/services/hold_worker'
import { ledger } from '#payments/services/ledger'
import { keysOf, paymentKeys } from '#payments/services/payment_service'
import { orderNumber } from '#orders/services/order_numbers'
import { orderSettlement } from '#payments/services/order_settlement'
import { pendingOrder, placeHolds, saveCardFor, TEST_CARDS } from '#tests/helpers'

const sandbox = () => gateway() as SandboxGateway
const intentsOf = (customerId: string) =>
  db.from('sandbox_payment_intents').where('customer_id', customerId)

test.group('The $1.00 hold', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('is placed by the worker after checkout and shows in the ledger', async ({
    client,
    assert,
  }) => {
    const { user, token, order } = await pendingOrder()
    assert.equal(order.holdStatus, 'queued')
    assert.lengthOf(await PaymentLedgerEntry.query().where('order_id', order.id), 0)

    const report = await holdWorker.runOnce()
    assert.include(report, { claimed: 1, placed: 1, declined: 0, retried: 0 })

    await order.refresh()
    assert.equal(order.status, 'pending')
    assert.equal(order.holdStatus, 'placed')
    assert.match(order.holdPaymentId!, /^pi_/)
    const entry = await PaymentLedgerEntry.findByOrFail('idempotencyKey', paymentKeys.hold(order))
    assert.include(entry.toJSON(), {
      kind: 'hold',
      status: 'succeeded',
      amountCents: 100,
      gatewayRef: order.holdPaymentId,
      gateway: 'sandbox',
    })
    const intent = await sandbox().findIntent(order.holdPaymentId!)
    assert.include(intent, { amount: 100, capture_method: 'manual', status: 'requires_capture' })

    const listed = await client.get('/api/user/orders').bearerToken(token)
    assert.equal(listed.body()[0].hold.status, 'placed')

    assert.include(await holdWorker.runOnce(), { claimed: 0 })
    assert.lengthOf(await intentsOf(user.gatewayCustomerId!), 1)
  })

  test('a declined hold cancels the order, gives the slot back and tells the customer', async ({
    client,
    assert,
  }) => {
    const { user, token, order, product } = await pendingOrder({ card: TEST_CARDS.declinesCharges })
    await product.refresh()
    assert.equal(product.stockTaken, 1)

    const report = await placeHolds()
    assert.include(report, { placed: 0, declined: 1 })

    await order.refresh()
    assert.equal(order.status, 'cancelled')
    assert.isNull(order.activeSlot)
    assert.isNotNull(order.cancelledAt)
    assert.equal(order.holdStatus, 'declined')
    assert.equal(order.failReason, 'hold_declined:generic_decline')
    await product.refresh()
    assert.equal(product.stockTaken, 0)

    const email = await EmailMessage.query()
      .where('order_id', order.id)
      .where('template', 'hold_declined')
      .firstOrFail()
    assert.equal(email.toAddress, user.email)
    assert.include(email.textBody, 'Your card was declined.')
    assert.include(email.textBody, orderNumber(order.id))
    assert.notInclude(email.textBody, order.publicId)

    const entry = await ledger.find(paymentKeys.hold(order))
    assert.equal(entry!.status, 'failed')
    assert.equal(entry!.errorCode, 'generic_decline')

    const listed = await client.get('/api/user/orders').bearerToken(token)
    assert.deepInclude(listed.body()[0], { status: 'cancelled', statusReason: order.failReason })
    assert.equal(listed.body()[0].hold.declineCode, 'generic_decline')

    // Running the worker again changes nothing and sends nothing more.
    await placeHolds()
    assert.lengthOf(await EmailMessage.query().where('template', 'hold_declined'), 1)
  })

  test('a card that needs authentication on every payment waits for the customer', async ({
    assert,
  }) => {
    const { order } = await pendingOrder({ card: TEST_CARDS.needsAuthentication })
    const report = await placeHolds()
    assert.include(report, { placed: 0, declined: 0, waiting: 1 })
    await order.refresh()
    assert.equal(order.status, 'pending')
    assert.equal(order.holdStatus, 'requires_action')
    assert.lengthOf(await EmailMessage.query().where('template', 'hold_declined'), 0)
  })

  test('a hold left placing by a crash is picked up again without a second hold', async ({
    assert,
  }) => {
    const { user, order } = await pendingOrder()
    // The worker claimed it, wrote the ledger row and made the call, then died.
    const entry = await ledger.begin({
      ...keysOf('hold', order),
      kind: 'hold',
      gateway: 'sandbox',
      orderId: order.id,
      userId: user.id,
      amountCents: 100,
    })
    const placed = await gateway().placeHold({
      customerId: user.gatewayCustomerId!,
      paymentMethodId: user.cardPaymentMethodId!,
      amountCents: 100,
      metadata: { order_id: order.publicId, purpose: 'hold' },
      idempotencyKey: entry.idempotencyKey,
    })
    await Order.query()
      .where('id', order.id)
      .update({
        hold_status: 'placing',
        hold_claimed_at: DateTime.now().minus({ seconds: 30 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      })

    // A fresh claim belongs to a live worker: left alone.
    assert.include(await holdWorker.runOnce(), { claimed: 0 })

    await Order.query()
      .where('id', order.id)
      .update({
        hold_claimed_at: DateTime.now().minus({ minutes: 10 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      })
    const report = await holdWorker.runOnce()
    assert.include(report, { claimed: 1, placed: 1 })

    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    assert.equal(order.holdPaymentId, placed.id)
    assert.lengthOf(await intentsOf(user.gatewayCustomerId!), 1)
    const done = await ledger.find(paymentKeys.hold(order))
    assert.equal(done!.status, 'succeeded')
    assert.equal(done!.attempts, 2)
  })

  test('a hold call left unfinished under an earlier key format is resumed with that key', async ({
    assert,
  }) => {
    const { user, order } = await pendingOrder()
    // An earlier version (keys by order row id) wrote its row and made the call, then died.
    const legacyKey = `order:${order.id}:hold`
    await ledger.begin({
      key: legacyKey,
      kind: 'hold',
      gateway: 'sandbox',
      orderId: order.id,
      userId: user.id,
      amountCents: 100,
    })
    const placed = await gateway().placeHold({
      customerId: user.gatewayCustomerId!,
      paymentMethodId: user.cardPaymentMethodId!,
      amountCents: 100,
      metadata: { order_id: order.publicId, purpose: 'hold' },
      idempotencyKey: legacyKey,
    })
    await Order.query()
      .where('id', order.id)
      .update({
        hold_status: 'placing',
        hold_claimed_at: DateTime.now().minus({ minutes: 10 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      })

    assert.include(await holdWorker.runOnce(), { claimed: 1, placed: 1 })
    await order.refresh()
    assert.equal(order.holdPaymentId, placed.id)
    assert.lengthOf(await intentsOf(user.gatewayCustomerId!), 1)
    const rows = await PaymentLedgerEntry.query().where('order_id', order.id)
    assert.deepEqual(
      rows.map((row) => [row.idempotencyKey, row.status, row.attempts]),
      [[legacyKey, 'succeeded', 2]]
    )
  })

  test('a rate-limited provider puts the hold back in the queue for later', async ({ assert }) => {
    const { order } = await pendingOrder()
    const previous = useGateway(
      new SandboxGateway({
        latencyMs: 0,
        requestsPerSecond: 0,
        webhookSecret: 'unused',
        webhookToleranceSeconds: 300,
      })
    )
    try {
      const report = await holdWorker.runOnce()
      assert.include(report, { claimed: 1, retried: 1, placed: 0 })
    } finally {
      useGateway(previous)
    }
    await order.refresh()
    assert.equal(order.status, 'pending')
    assert.equal(order.holdStatus, 'queued')
    assert.equal(order.holdErrorCode, 'rate_limited')
    assert.isTrue(order.holdNextAttemptAt! > DateTime.now())
    const entry = await ledger.find(paymentKeys.hold(order))
    assert.equal(entry!.status, 'started')

    // Not due yet.
    assert.include(await holdWorker.runOnce(), { claimed: 0 })
    await Order.query()
      .where('id', order.id)
      .update({
        hold_next_attempt_at: DateTime.now().minus({ seconds: 1 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      })
    assert.include(await holdWorker.runOnce(), { claimed: 1, placed: 1 })
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
  })

  test('an order cancelled while its hold was being placed gets the hold released', async ({
    assert,
  }) => {
    const { user, order } = await pendingOrder()
    // The worker had claimed it and written the ledger row when the customer cancelled.
    await ledger.begin({
      ...keysOf('hold', order),
      kind: 'hold',
      gateway: 'sandbox',
      orderId: order.id,
      userId: user.id,
      amountCents: 100,
    })
    await Order.query()
      .where('id', order.id)
      .update({
        hold_status: 'placing',
        hold_claimed_at: DateTime.now().minus({ minutes: 10 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      })
    await orderSettlement.cancel(order, { reason: 'customer_request' })

    const report = await holdWorker.runOnce()
    assert.include(report, { placed: 1, released: 1 })
    await order.refresh()
    assert.equal(order.status, 'cancelled')
    assert.equal(order.holdStatus, 'released')
    const [intent] = await intentsOf(user.gatewayCustomerId!)
    assert.equal(intent.status, 'canceled')
    const release = await ledger.find(paymentKeys.holdRelease(order))
    assert.equal(release!.status, 'succeeded')
  })

  test('a stale claim of an order cancelled before any hold call places nothing', async ({
    assert,
  }) => {
    const { user, order } = await pendingOrder()
    await orderSettlement.cancel(order)
    await Order.query()
      .where('id', order.id)
      .update({
        hold_status: 'placing',
        hold_claimed_at: DateTime.now().minus({ minutes: 10 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      })
    assert.include(await holdWorker.runOnce(), { claimed: 1, placed: 0 })
    await order.refresh()
    assert.equal(order.holdStatus, 'skipped')
    assert.lengthOf(await intentsOf(user.gatewayCustomerId!), 0)
  })

  test('an order cancelled before its hold was placed never gets one', async ({ assert }) => {
    const { user, order } = await pendingOrder()
    await orderSettlement.cancel(order)
    await order.refresh()
    assert.equal(order.holdStatus, 'skipped')
    assert.include(await holdWorker.runOnce(), { claimed: 0 })
    assert.lengthOf(await intentsOf(user.gatewayCustomerId!), 0)
  })

  test('after a declined hold the customer can save a new card and buy again', async ({
    client,
    assert,
  }) => {
    const { user, token, profile, product, order } = await pendingOrder({
      card: TEST_CARDS.declinesCharges,
    })
    await placeHolds()
    await saveCardFor(user, TEST_CARDS.ok)
    const again = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
    again.assertStatus(201)
    await placeHolds()
    const fresh = await Order.findByOrFail('publicId', again.body().order.orderId)
    assert.equal(fresh.holdStatus, 'placed')
    assert.notEqual(fresh.id, order.id)
  })
})
