import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import paymentsConfig from '#config/payments'
import Order from '#orders/models/order'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { signStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { ledger } from '#payments/services/ledger'
import { pendingOrder, placeHolds } from '#tests/helpers'

const secret = paymentsConfig.sandbox.webhookSecret
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
    const { user, order } = await pendingOrder()
    await ledger.begin({
      key: `order:${order.id}:hold`,
      kind: 'hold',
      gateway: 'sandbox',
      orderId: order.id,
      userId: user.id,
      amountCents: 100,
    })
    await Order.query().where('id', order.id).update({ hold_status: 'placing' })

    const payload = event('payment_intent.amount_capturable_updated', {
      id: 'pi_from_webhook',
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
    assert.equal(order.holdPaymentId, 'pi_from_webhook')
    const entry = await ledger.find(`order:${order.id}:hold`)
    assert.equal(entry!.status, 'succeeded')
    assert.equal(entry!.gatewayRef, 'pi_from_webhook')
  })

  test('a tampered body, a wrong secret, a missing or stale signature are refused', async ({
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
    const attempts = [
      [tampered, signStripeStyleWebhook(payload, secret)],
      [payload, signStripeStyleWebhook(payload, 'whsec_wrong')],
      [payload, ''],
      [payload, signStripeStyleWebhook(payload, secret, Math.floor(Date.now() / 1000) - 60 * 60)],
    ] as const
    for (const [body, signature] of attempts) {
      const response = await deliver(client, body, signature)
      response.assertStatus(400)
      response.assertBodyContains({ success: false, code: 'invalid_signature' })
    }
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    assert.lengthOf(await db.from('webhook_events'), 0)
  })

  test('a duplicate delivery is acknowledged and applied once', async ({ client, assert }) => {
    const { order } = await pendingOrder({ product: { priceCents: 2000 } })
    await placeHolds()
    await orderLifecycle.succeed(order)
    await order.refresh()

    const payload = event(
      'charge.refunded',
      { id: 'ch_1', object: 'charge', payment_intent: order.feePaymentId, amount_refunded: 500 },
      'evt_refund_once'
    )
    const first = await deliver(client, payload)
    first.assertStatus(200)
    first.assertBodyContains({ duplicate: false, outcome: 'fee_refunded' })
    await order.refresh()
    assert.equal(order.feeStatus, 'refunded')
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

  test('fee succeeded and failed events settle a fee left unknown by a crash', async ({
    client,
    assert,
  }) => {
    const paid = await pendingOrder()
    const failed = await pendingOrder()
    for (const { order } of [paid, failed]) {
      await db.from('orders').where('id', order.id).update({ status: 'success' })
      await ledger.begin({
        key: `order:${order.id}:fee`,
        kind: 'fee',
        gateway: 'sandbox',
        orderId: order.id,
        userId: order.userId,
        amountCents: order.priceCents,
      })
    }
    const succeeded = await deliver(
      client,
      event('payment_intent.succeeded', {
        id: 'pi_fee_ok',
        object: 'payment_intent',
        status: 'succeeded',
        metadata: { order_id: paid.order.publicId, purpose: 'fee' },
      })
    )
    succeeded.assertBodyContains({ outcome: 'fee_paid' })
    const declined = await deliver(
      client,
      event('payment_intent.payment_failed', {
        id: 'pi_fee_bad',
        object: 'payment_intent',
        status: 'requires_payment_method',
        last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
        metadata: { order_id: failed.order.publicId, purpose: 'fee' },
      })
    )
    declined.assertBodyContains({ outcome: 'fee_failed' })

    await paid.order.refresh()
    await failed.order.refresh()
    assert.equal(paid.order.feeStatus, 'paid')
    assert.equal(paid.order.feePaymentId, 'pi_fee_ok')
    assert.equal(failed.order.feeStatus, 'failed')
    assert.equal(failed.order.feeErrorCode, 'insufficient_funds')
    assert.equal((await ledger.find(`order:${failed.order.id}:fee`))!.status, 'failed')
  })

  test('a hold that failed or expired at the provider is handled', async ({ client, assert }) => {
    const declined = await pendingOrder()
    await ledger.begin({
      key: `order:${declined.order.id}:hold`,
      kind: 'hold',
      gateway: 'sandbox',
      orderId: declined.order.id,
      userId: declined.user.id,
      amountCents: 100,
    })
    const failedHold = await deliver(
      client,
      event('payment_intent.payment_failed', {
        id: 'pi_hold_bad',
        object: 'payment_intent',
        status: 'requires_payment_method',
        last_payment_error: { code: 'card_declined', decline_code: 'lost_card' },
        metadata: { order_id: declined.order.publicId, purpose: 'hold' },
      })
    )
    failedHold.assertBodyContains({ outcome: 'hold_declined' })
    // The worker finishes the decline from the ledger: cancelled, slot back, e-mail.
    await placeHolds()
    await declined.order.refresh()
    assert.equal(declined.order.status, 'cancelled')
    assert.equal(declined.order.failReason, 'hold_declined:lost_card')

    const expired = await pendingOrder()
    await placeHolds()
    await expired.order.refresh()
    const response = await deliver(
      client,
      event('payment_intent.canceled', {
        id: expired.order.holdPaymentId,
        object: 'payment_intent',
        status: 'canceled',
        cancellation_reason: 'automatic',
      })
    )
    response.assertBodyContains({ outcome: 'hold_expired' })
    await expired.order.refresh()
    assert.equal(expired.order.holdStatus, 'released')
    assert.equal(expired.order.status, 'pending')
  })

  test('events we do not handle are acknowledged', async ({ client }) => {
    const response = await deliver(client, event('customer.created', { id: 'cus_1' }))
    response.assertStatus(200)
    response.assertBodyContains({ received: true, outcome: 'ignored' })
  })
})
