import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import paymentsConfig from '#config/payments'
import Order from '#orders/models/order'
import { orderSettlement } from '#payments/services/order_settlement'
import { cardOnFile } from '#payments/services/card_on_file'
import { CardDeclinedError } from '#payments/gateways/payment_gateway'
import { signStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { SandboxGateway } from '#payments/gateways/sandbox_gateway'
import { gateway, useGateway } from '#payments/services/gateway'
import { ledger } from '#payments/services/ledger'
import { keysOf, paymentService } from '#payments/services/payment_service'
import { pendingOrder, placeHolds, saveCardFor, TEST_CARDS } from '#tests/helpers'
import { clock } from '#core/services/clock'

const secret = paymentsConfig.sandbox.webhookSecret
/** The sandbox's webhook secret before every install got its own: public, so worthless. */
const OLD_PUBLIC_SECRET = 'whsec_dropslot_sandbox'
let sequence = 0

function event(type: string, object: Record<string, unknown>, id?: string) {
  sequence += 1
  return JSON.stringify({
    id: id ?? `evt_test_${Date.now()}_${sequence}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  })
}

/**
 * Our side of a call cut short by a crash: the ledger row is written and the gateway call made,
 * but nothing after it ran. Returns the id of the payment the gateway made (declined or not).
 */
async function crashAfterGatewayCall(order: Order, purpose: 'hold' | 'fee') {
  const amountCents = purpose === 'hold' ? order.holdAmountCents : order.priceCents
  const entry = await ledger.begin({
    ...keysOf(purpose, order),
    kind: purpose,
    gateway: 'sandbox',
    orderId: order.id,
    userId: order.userId,
    amountCents,
  })
  const card = (await cardOnFile(order.userId))!
  const request = {
    customerId: card.customerId,
    paymentMethodId: card.paymentMethodId,
    amountCents,
    metadata: { order_id: order.publicId, purpose },
    idempotencyKey: entry.idempotencyKey,
  }
  try {
    const ref =
      purpose === 'hold'
        ? await gateway().placeHold(request)
        : await gateway().chargeFee({ ...request, description: 'fee' })
    return ref.id
  } catch (error) {
    if (!(error instanceof CardDeclinedError)) throw error
    const declined = await db
      .from('sandbox_payment_intents')
      .where('metadata', 'like', `%${order.publicId}%`)
      .where('status', 'requires_payment_method')
      .firstOrFail()
    return String(declined.id)
  }
}

test.group('Stripe webhooks', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  const deliver = (client: any, payload: string, signature?: string) => {
    const request = client.post('/api/hooks/stripe').unsafeJson(payload)
    return signature === undefined
      ? request.header('stripe-signature', signStripeStyleWebhook(payload, secret))
      : request.header('stripe-signature', signature)
  }

  test('a valid event moves our state: a hold placed while our worker crashed', async ({
    client,
    assert,
  }) => {
    const { order } = await pendingOrder()
    const paymentId = await crashAfterGatewayCall(order, 'hold')
    await Order.query().where('id', order.id).update({ hold_status: 'placing' })

    const payload = event('payment_intent.amount_capturable_updated', {
      id: paymentId,
      object: 'payment_intent',
      status: 'requires_capture',
      amount: 100,
      metadata: { order_id: order.publicId, purpose: 'hold' },
    })
    const response = await deliver(client, payload)
    response.assertStatus(200)
    response.assertBodyContains({ received: true, duplicate: false, outcome: 'hold_placed' })

    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    assert.equal(order.holdPaymentId, paymentId)
    const entry = await ledger.find(keysOf('hold', order))
    assert.equal(entry!.status, 'succeeded')
    assert.equal(entry!.gatewayRef, paymentId)
  })

  test('this install has its own webhook secret, never the old public default', async ({
    assert,
  }) => {
    assert.notEqual(secret, OLD_PUBLIC_SECRET)
    assert.isAtLeast(secret.length, 24)
  })

  test('an event signed with the old public default secret changes nothing', async ({
    client,
    assert,
  }) => {
    // The customer's fee was declined: nothing was charged at the gateway.
    const { user, order } = await pendingOrder({ product: { priceCents: 2500 } })
    await placeHolds()
    await saveCardFor(user, TEST_CARDS.declinesCharges)
    await orderSettlement.succeed(order)
    await order.refresh()
    assert.equal(order.feeStatus, 'failed')

    const payload = event('payment_intent.succeeded', {
      id: 'pi_forged',
      object: 'payment_intent',
      status: 'succeeded',
      amount: 2500,
      metadata: { order_id: order.publicId, purpose: 'fee' },
    })
    const response = await deliver(
      client,
      payload,
      signStripeStyleWebhook(payload, OLD_PUBLIC_SECRET)
    )
    response.assertStatus(400)
    response.assertBodyContains({ success: false, code: 'invalid_signature' })
    await order.refresh()
    assert.equal(order.feeStatus, 'failed')
    assert.isNull(order.feePaymentId)
    assert.lengthOf(await db.from('webhook_events'), 0)
  })

  test('a signed event the gateway does not confirm changes nothing', async ({
    client,
    assert,
  }) => {
    // A declined fee: the gateway's payment is `requires_payment_method`, the event says paid.
    const { user, order } = await pendingOrder({ product: { priceCents: 2500 } })
    await placeHolds()
    await saveCardFor(user, TEST_CARDS.declinesCharges)
    await orderSettlement.succeed(order)
    await order.refresh()
    assert.equal(order.feeStatus, 'failed')
    const [declined] = await db
      .from('sandbox_payment_intents')
      .where('customer_id', user.gatewayCustomerId!)
      .where('capture_method', 'automatic')
    assert.equal(declined.status, 'requires_payment_method')

    const claimsPaid = await deliver(
      client,
      event('payment_intent.succeeded', {
        id: declined.id,
        object: 'payment_intent',
        status: 'succeeded',
        amount: 2500,
        metadata: { order_id: order.publicId, purpose: 'fee' },
      })
    )
    claimsPaid.assertStatus(200)
    assert.notEqual(claimsPaid.body().outcome, 'fee_paid')
    await order.refresh()
    assert.equal(order.feeStatus, 'failed')
    assert.isNull(order.feePaymentId)

    // A hold the gateway never made, for an order whose hold call was cut short.
    const other = await pendingOrder()
    await ledger.begin({
      ...keysOf('hold', other.order),
      kind: 'hold',
      gateway: 'sandbox',
      orderId: other.order.id,
      userId: other.user.id,
      amountCents: 100,
    })
    await Order.query().where('id', other.order.id).update({ hold_status: 'placing' })
    const neverMade = await deliver(
      client,
      event('payment_intent.amount_capturable_updated', {
        id: 'pi_never_made',
        object: 'payment_intent',
        status: 'requires_capture',
        amount: 100,
        metadata: { order_id: other.order.publicId, purpose: 'hold' },
      })
    )
    neverMade.assertStatus(200)
    neverMade.assertBodyContains({ received: true, outcome: 'unknown_payment' })
    await other.order.refresh()
    assert.equal(other.order.holdStatus, 'placing')
    assert.isNull(other.order.holdPaymentId)
    assert.equal((await ledger.find(keysOf('hold', other.order)))!.status, 'started')

    // A real payment of ours, but the event's story is not the gateway's: the order's hold was
    // released (cancelled at the gateway), the event says it awaits capture.
    assert.equal(order.holdStatus, 'released')
    const claimsPlaced = await deliver(
      client,
      event('payment_intent.amount_capturable_updated', {
        id: order.holdPaymentId,
        object: 'payment_intent',
        status: 'requires_capture',
        amount: 100,
      })
    )
    claimsPlaced.assertBodyContains({ outcome: 'hold_released' })
    await order.refresh()
    assert.equal(order.holdStatus, 'released')
  })

  test('a payment made by someone else is acknowledged and changes nothing', async ({
    client,
    assert,
  }) => {
    // The gateway knows the payment (the sandbox made it), but no ledger row of ours did.
    const { user, order } = await pendingOrder()
    const foreign = await gateway().placeHold({
      customerId: user.gatewayCustomerId!,
      paymentMethodId: user.cardPaymentMethodId!,
      amountCents: 100,
      metadata: { order_id: order.publicId, purpose: 'hold' },
      idempotencyKey: 'someone-else-1',
    })
    const response = await deliver(
      client,
      event('payment_intent.amount_capturable_updated', {
        id: foreign.id,
        status: 'requires_capture',
        metadata: { order_id: order.publicId, purpose: 'hold' },
      })
    )
    response.assertStatus(200)
    response.assertBodyContains({ outcome: 'unknown_payment' })
    await order.refresh()
    assert.equal(order.holdStatus, 'queued')
  })

  test('a tampered body, a wrong secret, a missing, stale or future signature are refused', async ({
    client,
    assert,
  }) => {
    const { order } = await pendingOrder()
    await placeHolds()
    await order.refresh()
    const payload = event('payment_intent.canceled', {
      id: order.holdPaymentId,
      object: 'payment_intent',
      status: 'canceled',
      cancellation_reason: 'automatic',
      metadata: { order_id: order.publicId, purpose: 'hold' },
    })
    const tampered = payload.replace('"automatic"', '"abandoned"')
    const now = Math.floor(Date.now() / 1000)
    const attempts = [
      [tampered, signStripeStyleWebhook(payload, secret)],
      [payload, signStripeStyleWebhook(payload, 'whsec_wrong')],
      [payload, ''],
      [payload, signStripeStyleWebhook(payload, secret, now - 60 * 60)],
      [payload, signStripeStyleWebhook(payload, secret, now - 600)],
      [payload, signStripeStyleWebhook(payload, secret, now + 600)],
    ] as const
    for (const [body, signature] of attempts) {
      const response = await deliver(client, body, signature)
      response.assertStatus(400)
      response.assertBodyContains({ success: false, code: 'invalid_signature' })
    }
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    assert.lengthOf(await db.from('webhook_events'), 0)

    // Within the tolerance (clocks differ a little) both ways: accepted.
    for (const skew of [-200, 200]) {
      const fresh = event('customer.created', { id: 'cus_1' })
      const accepted = await deliver(
        client,
        fresh,
        signStripeStyleWebhook(fresh, secret, now + skew)
      )
      accepted.assertStatus(200)
    }
  })

  test('a duplicate delivery is acknowledged and applied once', async ({ client, assert }) => {
    const { order } = await pendingOrder({ product: { priceCents: 2000 } })
    await placeHolds()
    await orderSettlement.succeed(order)
    await order.refresh()
    // Refunded at the provider's dashboard, outside our own calls.
    await gateway().refund({
      paymentId: order.feePaymentId!,
      amountCents: 500,
      idempotencyKey: 'dashboard-refund-1',
    })

    const payload = event(
      'charge.refunded',
      { id: 'ch_1', object: 'charge', payment_intent: order.feePaymentId, amount_refunded: 500 },
      'evt_refund_once'
    )
    const first = await deliver(client, payload)
    first.assertStatus(200)
    first.assertBodyContains({ duplicate: false, outcome: 'fee_refunded' })
    await order.refresh()
    // 500 of 2000 went back: a partial refund, the fee stays paid.
    assert.equal(order.feeStatus, 'paid')
    assert.equal(order.refundedCents, 500)

    // Whatever happens to the order since, a redelivery of the same event changes nothing.
    await db.from('orders').where('id', order.id).update({ fee_status: 'paid', refunded_cents: 0 })
    const again = await deliver(client, payload)
    again.assertStatus(200)
    again.assertBodyContains({ received: true, duplicate: true, eventId: 'evt_refund_once' })
    await order.refresh()
    assert.equal(order.refundedCents, 0)
    assert.lengthOf(await db.from('webhook_events').where('event_id', 'evt_refund_once'), 1)
  })

  test('refund events take the amount from the gateway, not from the event', async ({
    client,
    assert,
  }) => {
    const { order } = await pendingOrder({ product: { priceCents: 2000 } })
    await placeHolds()
    await orderSettlement.succeed(order)
    await order.refresh()

    // Nothing refunded at the gateway: an event claiming a refund changes nothing.
    const claimed = await deliver(
      client,
      event('charge.refunded', {
        id: 'ch_2',
        object: 'charge',
        payment_intent: order.feePaymentId,
        amount_refunded: 2000,
      })
    )
    claimed.assertBodyContains({ outcome: 'ignored' })
    const unknownRefund = await deliver(
      client,
      event('refund.updated', { id: 're_forged', status: 'succeeded', amount: 2000 })
    )
    unknownRefund.assertBodyContains({ outcome: 'unknown_payment' })
    await order.refresh()
    assert.equal(order.feeStatus, 'paid')

    const refund = await gateway().refund({
      paymentId: order.feePaymentId!,
      amountCents: 700,
      idempotencyKey: 'dashboard-refund-2',
    })
    const real = await deliver(
      client,
      event('refund.created', { id: refund.id, status: 'succeeded', amount: 2000 })
    )
    real.assertBodyContains({ outcome: 'fee_refunded' })
    await order.refresh()
    assert.equal(order.feeStatus, 'paid')
    assert.equal(order.refundedCents, 700)

    // The rest refunded too: the whole fee went back.
    const rest = await gateway().refund({
      paymentId: order.feePaymentId!,
      amountCents: 1300,
      idempotencyKey: 'dashboard-refund-3',
    })
    const full = await deliver(
      client,
      event('refund.created', { id: rest.id, status: 'succeeded', amount: 1300 })
    )
    full.assertBodyContains({ outcome: 'fee_refunded' })
    await order.refresh()
    assert.equal(order.feeStatus, 'refunded')
    assert.equal(order.refundedCents, 2000)
  })

  test('fee succeeded and failed events settle a fee left unknown by a crash', async ({
    client,
    assert,
  }) => {
    const paid = await pendingOrder()
    const failed = await pendingOrder({ card: TEST_CARDS.ok })
    await placeHolds()
    await saveCardFor(failed.user, TEST_CARDS.declinesCharges)
    const ids: string[] = []
    for (const { order } of [paid, failed]) {
      await db.from('orders').where('id', order.id).update({ status: 'success' })
      ids.push(await crashAfterGatewayCall(order, 'fee'))
    }
    const succeeded = await deliver(
      client,
      event('payment_intent.succeeded', { id: ids[0], object: 'payment_intent' })
    )
    succeeded.assertBodyContains({ outcome: 'fee_paid' })
    const declined = await deliver(
      client,
      event('payment_intent.payment_failed', { id: ids[1], object: 'payment_intent' })
    )
    declined.assertBodyContains({ outcome: 'fee_failed' })

    await paid.order.refresh()
    await failed.order.refresh()
    assert.equal(paid.order.feeStatus, 'paid')
    assert.equal(paid.order.feePaymentId, ids[0])
    assert.equal(failed.order.feeStatus, 'failed')
    assert.equal(failed.order.feeErrorCode, 'generic_decline')
    assert.equal((await ledger.find(keysOf('fee', failed.order)))!.status, 'failed')
    assert.equal((await ledger.find(keysOf('fee', paid.order)))!.status, 'succeeded')
  })

  test('a hold that failed or expired at the provider is handled', async ({ client, assert }) => {
    const declined = await pendingOrder()
    await saveCardFor(declined.user, TEST_CARDS.declinesCharges)
    const declinedId = await crashAfterGatewayCall(declined.order, 'hold')
    const failedHold = await deliver(
      client,
      event('payment_intent.payment_failed', { id: declinedId, object: 'payment_intent' })
    )
    failedHold.assertBodyContains({ outcome: 'hold_declined' })
    // The worker finishes the decline from the ledger: cancelled, slot back, e-mail.
    await placeHolds()
    await declined.order.refresh()
    assert.equal(declined.order.status, 'cancelled')
    assert.equal(declined.order.failReason, 'hold_declined:generic_decline')

    const expired = await pendingOrder()
    await placeHolds()
    await expired.order.refresh()
    const lapsedId = expired.order.holdPaymentId!
    // The provider lets an uncaptured hold lapse after 7 days (the sandbox: 168 hours).
    clock.travel(169 * 3_600_000)
    const response = await deliver(
      client,
      event('payment_intent.canceled', {
        id: lapsedId,
        object: 'payment_intent',
        status: 'canceled',
      })
    )
    // The order still waits for its release: never left without a hold, a new round is placed.
    response.assertBodyContains({ outcome: 'hold_renewed' })
    const lapsed = await db.from('sandbox_payment_intents').where('id', lapsedId).first()
    assert.equal(lapsed.cancellation_reason, 'automatic')
    await expired.order.refresh()
    assert.equal(expired.order.status, 'pending')
    assert.equal(expired.order.holdStatus, 'placed')
    assert.equal(expired.order.holdRound, 2)
    assert.notEqual(expired.order.holdPaymentId, lapsedId)
    const renewed = await db
      .from('sandbox_payment_intents')
      .where('id', expired.order.holdPaymentId!)
      .first()
    assert.equal(renewed.status, 'requires_capture')
    assert.equal((await ledger.find(keysOf('hold', expired.order, 2)))!.status, 'succeeded')
    const timeline = await db.from('order_events').where('order_id', expired.order.id)
    assert.deepEqual(
      timeline.map((row) => row.kind),
      ['hold_renewed']
    )
    // The notice again, or the old hold's own cancellation, changes nothing more.
    const again = await deliver(
      client,
      event('payment_intent.canceled', {
        id: lapsedId,
        object: 'payment_intent',
        status: 'canceled',
      })
    )
    again.assertBodyContains({ outcome: 'hold_superseded' })
    await expired.order.refresh()
    assert.equal(expired.order.holdRound, 2)
  })

  test('a ledger row written under an earlier key format is still matched', async ({
    client,
    assert,
  }) => {
    const { order } = await pendingOrder()
    const legacyKey = `order:${order.id}:hold`
    assert.equal(keysOf('hold', order).legacyKey, legacyKey)
    await ledger.begin({
      key: legacyKey,
      kind: 'hold',
      gateway: 'sandbox',
      orderId: order.id,
      userId: order.userId,
      amountCents: 100,
    })
    const card = (await cardOnFile(order.userId))!
    const placed = await gateway().placeHold({
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      amountCents: 100,
      metadata: { order_id: order.publicId, purpose: 'hold' },
      idempotencyKey: legacyKey,
    })
    await Order.query().where('id', order.id).update({ hold_status: 'placing' })
    const response = await deliver(
      client,
      event('payment_intent.amount_capturable_updated', { id: placed.id })
    )
    response.assertBodyContains({ outcome: 'hold_placed' })
    await order.refresh()
    assert.equal(order.holdPaymentId, placed.id)
    assert.equal((await ledger.find(legacyKey))!.status, 'succeeded')
    assert.isNull(await ledger.find(keysOf('hold', order).key))
  })

  test('an event that cannot be checked with the gateway is answered 503 and applied later', async ({
    client,
    assert,
  }) => {
    const { order } = await pendingOrder()
    const paymentId = await crashAfterGatewayCall(order, 'hold')
    await Order.query().where('id', order.id).update({ hold_status: 'placing' })
    const payload = event('payment_intent.amount_capturable_updated', { id: paymentId })

    const previous = useGateway(
      new SandboxGateway({
        latencyMs: 0,
        requestsPerSecond: 0,
        webhookSecret: secret,
        webhookToleranceSeconds: 300,
      })
    )
    try {
      const busy = await deliver(client, payload)
      busy.assertStatus(503)
      busy.assertBodyContains({ success: false, code: 'payment_provider_unavailable' })
    } finally {
      useGateway(previous)
    }
    await order.refresh()
    assert.equal(order.holdStatus, 'placing')

    const redelivered = await deliver(client, payload)
    redelivered.assertStatus(200)
    redelivered.assertBodyContains({ duplicate: false, outcome: 'hold_placed' })
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
  })

  test('events we do not handle are acknowledged', async ({ client }) => {
    const response = await deliver(client, event('customer.created', { id: 'cus_1' }))
    response.assertStatus(200)
    response.assertBodyContains({ received: true, outcome: 'ignored' })
  })

  test('a fee charged by our own call is not charged again by a replayed event', async ({
    client,
    assert,
  }) => {
    const { order } = await pendingOrder({ product: { priceCents: 2000 } })
    await placeHolds()
    await orderSettlement.succeed(order)
    await order.refresh()
    const response = await deliver(
      client,
      event('payment_intent.succeeded', { id: order.feePaymentId, object: 'payment_intent' })
    )
    response.assertBodyContains({ outcome: 'fee_paid' })
    const rows = await paymentService.ledgerFor(order.id)
    assert.lengthOf(
      rows.filter((row) => row.kind === 'fee'),
      1
    )
    await order.refresh()
    assert.equal(order.feeStatus, 'paid')
  })
})
