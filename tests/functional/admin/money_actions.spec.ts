import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import paymentsConfig from '#config/payments'
import AuditLog from '#core/models/audit_log'
import Order from '#orders/models/order'
import Product from '#catalog/models/product'
import { orderSettlement } from '#payments/services/order_settlement'
import { releaseRunner } from '#release/services/release_runner'
import { keysOf, paymentKeys } from '#payments/services/payment_service'
import { ledger } from '#payments/services/ledger'
import { sandboxChallenges } from '#payments/gateways/sandbox_gateway'
import { signStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { slowGateway } from '#tests/support/slow_gateway'
import { adminWithToken, pendingOrder, placeHolds, saveCardFor, TEST_CARDS } from '#tests/helpers'

async function releaseNow(productId: number) {
  await Product.query()
    .where('id', productId)
    .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
}

const emailsOf = (orderId: number, template: string) =>
  db.from('email_messages').where('order_id', orderId).where('template', template)

const auditOf = (publicId: string, action: string) =>
  AuditLog.query().where('subject_id', publicId).where('action', action)

const timelineOf = (orderId: number, kind: string) =>
  db.from('order_events').where('order_id', orderId).where('kind', kind)

/** A successful order of a released product whose fee was charged. */
async function paidOrder(priceCents: number) {
  const made = await pendingOrder({ product: { priceCents } })
  await placeHolds()
  await releaseNow(made.product.id)
  await orderSettlement.succeed(made.order, { confirmationNumber: 'RT-1' })
  await made.order.refresh()
  return made
}

/** Sends a console call now and hands back its answer later (the request runs meanwhile). */
function send(request: PromiseLike<any>): Promise<any> {
  return Promise.resolve(request)
}

test.group('Money actions: one per order at a time', (group) => {
  let restore: (() => unknown) | null = null
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    return async () => {
      restore?.()
      restore = null
      await rollback()
    }
  })

  test('two refunds of one order at once: one refund, one 409 order_busy, one e-mail', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order } = await paidOrder(3000)
    const slow = slowGateway('refund')
    restore = slow.restore

    const first = send(
      client
        .post(`/api/admin/orders/${order.publicId}/refund`)
        .bearerToken(token)
        .json({ amount: 10, reason: 'Goodwill' })
    )
    await slow.inFlight
    // The second admin, with another amount, while the first refund is at the provider.
    const second = await client
      .post(`/api/admin/orders/${order.publicId}/refund`)
      .bearerToken(token)
      .json({ amount: 5, reason: 'Goodwill too' })
    second.assertStatus(409)
    assert.equal(second.body().code, 'order_busy')
    slow.answer()
    const done = await first
    done.assertStatus(200)
    assert.equal(done.body().refundedCents, 1000)

    await order.refresh()
    assert.equal(order.refundedCents, 1000)
    const refunds = await db
      .from('payment_ledger')
      .where('order_id', order.id)
      .where('kind', 'refund')
    assert.lengthOf(refunds, 1)
    assert.include(refunds[0], { amount_cents: 1000, status: 'succeeded' })
    const atGateway = await db
      .from('sandbox_refunds')
      .where('payment_intent_id', order.feePaymentId!)
    assert.lengthOf(atGateway, 1)
    assert.equal(atGateway[0].amount, 1000)
    assert.lengthOf(await emailsOf(order.id, 'fee_refunded'), 1)
    assert.lengthOf(await auditOf(order.publicId, 'order.fee_refund'), 1)
    assert.lengthOf(await timelineOf(order.id, 'fee_refund'), 1)
  })

  test('waive and correct while a fee retry is charging are refused; money and record agree', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order, product, user } = await pendingOrder({ product: { priceCents: 2200 } })
    await placeHolds()
    await releaseNow(product.id)
    await saveCardFor(user, TEST_CARDS.declinesCharges)
    await orderSettlement.succeed(order)
    await order.refresh()
    assert.equal(order.feeStatus, 'failed')
    // The customer saves a card that works; a later run tries the fee again, slowly.
    await saveCardFor(user, TEST_CARDS.ok)
    const slow = slowGateway('chargeFee')
    restore = slow.restore
    const retrying = releaseRunner.retryFee(order.id)
    await slow.inFlight

    for (const [tool, body] of [
      ['waive-fee', { reason: 'Goodwill' }],
      ['correct', { reason: 'Retailer cancelled' }],
      ['refund', { reason: 'Goodwill' }],
    ] as const) {
      const refused = await client
        .post(`/api/admin/orders/${order.publicId}/${tool}`)
        .bearerToken(token)
        .json(body)
      refused.assertStatus(409)
      assert.equal(refused.body().code, 'order_busy', tool)
    }
    // Nothing changed while refused.
    await order.refresh()
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'failed')
    assert.lengthOf(await emailsOf(order.id, 'fee_waived'), 0)
    assert.lengthOf(await emailsOf(order.id, 'order_corrected'), 0)
    assert.lengthOf(await auditOf(order.publicId, 'order.fee_waive'), 0)

    slow.answer()
    assert.equal(await retrying, 'paid')
    await order.refresh()
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'paid')
    const fees = await db
      .from('payment_ledger')
      .where('order_id', order.id)
      .where('kind', 'fee')
      .orderBy('id')
    assert.deepEqual(
      fees.map((row) => row.status),
      ['failed', 'succeeded']
    )
    const charged = await db
      .from('sandbox_payment_intents')
      .where('id', order.feePaymentId!)
      .first()
    assert.include(charged, { status: 'succeeded', amount: 2200 })

    // Now the correction goes through, and gives the fee back.
    const corrected = await client
      .post(`/api/admin/orders/${order.publicId}/correct`)
      .bearerToken(token)
      .json({ reason: 'Retailer cancelled' })
    corrected.assertStatus(200)
    assert.equal(corrected.body().feeStatus, 'refunded')
    // Charged, then given back: this failed order alone reads Refunded.
    assert.equal(corrected.body().statusLabel, 'Refunded')
    assert.isNull(corrected.body().outcomeWords)
    const after = await db.from('sandbox_payment_intents').where('id', order.feePaymentId!).first()
    assert.equal(after.amount_refunded, 2200)
    const mails = await emailsOf(order.id, 'order_corrected')
    assert.lengthOf(mails, 1)
    assert.include(mails[0].text_body, '$22.00')
  })

  test('correct and a second mark while the first charge is in flight are refused', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order, product } = await pendingOrder({ product: { priceCents: 4100 } })
    await placeHolds()
    await releaseNow(product.id)
    const slow = slowGateway('chargeFee')
    restore = slow.restore

    const marking = send(
      client
        .post(`/api/admin/orders/${order.publicId}/mark`)
        .bearerToken(token)
        .json({ status: 'success', confirmationNumber: 'NK-9' })
    )
    await slow.inFlight
    const correct = await client
      .post(`/api/admin/orders/${order.publicId}/correct`)
      .bearerToken(token)
      .json({ reason: 'Retailer cancelled' })
    correct.assertStatus(409)
    assert.equal(correct.body().code, 'order_busy')
    const markAgain = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'fail', reason: 'Sold out' })
    markAgain.assertStatus(409)
    assert.equal(markAgain.body().code, 'order_busy')

    slow.answer()
    const marked = await marking
    marked.assertStatus(200)
    assert.equal(marked.body().status, 'success')
    assert.equal(marked.body().feeStatus, 'paid')
    await order.refresh()
    const charged = await db
      .from('sandbox_payment_intents')
      .where('id', order.feePaymentId!)
      .first()
    assert.include(charged, { status: 'succeeded', amount: 4100, amount_refunded: 0 })
    assert.lengthOf(await emailsOf(order.id, 'order_secured'), 1)
    assert.lengthOf(await emailsOf(order.id, 'order_corrected'), 0)
  })

  test('a fee charge whose answer is not in yet: waive and correct wait for it', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order, product, user } = await pendingOrder({ product: { priceCents: 1800 } })
    await placeHolds()
    await releaseNow(product.id)
    await saveCardFor(user, TEST_CARDS.declinesCharges)
    await orderSettlement.succeed(order)
    await order.refresh()
    // A retry sent to the provider whose answer was lost (a timeout): its row stays started.
    await Order.query().where('id', order.id).update({ fee_attempts: 2 })
    await ledger.begin({
      ...keysOf('fee', order, 2),
      kind: 'fee',
      gateway: 'sandbox',
      orderId: order.id,
      userId: order.userId,
      amountCents: 1800,
    })
    for (const [tool, body] of [
      ['waive-fee', { reason: 'Goodwill' }],
      ['correct', { reason: 'Retailer cancelled' }],
    ] as const) {
      const refused = await client
        .post(`/api/admin/orders/${order.publicId}/${tool}`)
        .bearerToken(token)
        .json(body)
      refused.assertStatus(409)
      assert.equal(refused.body().code, 'fee_in_flight', tool)
    }
    await order.refresh()
    assert.equal(order.feeStatus, 'failed')
    assert.equal(order.status, 'success')
  })

  test('a payment that lands after the fee was waived is refunded automatically, and said so', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order, product, user } = await pendingOrder({ product: { priceCents: 2600 } })
    await placeHolds()
    await releaseNow(product.id)
    // The card now asks for 3-D Secure on every payment: the fee waits for the customer.
    await saveCardFor(user, TEST_CARDS.needsAuthentication)
    await orderSettlement.succeed(order)
    await order.refresh()
    assert.equal(order.feeStatus, 'requires_action')
    const [feeRow] = await db
      .from('payment_ledger')
      .where('order_id', order.id)
      .where('kind', 'fee')
    const paymentId = String(feeRow.gateway_ref)
    assert.match(paymentId, /^pi_sbx_/)

    const waived = await client
      .post(`/api/admin/orders/${order.publicId}/waive-fee`)
      .bearerToken(token)
      .json({ reason: 'Customer could not authenticate' })
    waived.assertStatus(200)
    assert.equal(waived.body().feeStatus, 'waived')

    // Days later the customer completes their bank's challenge for that payment after all.
    await sandboxChallenges.answer(paymentId, true)
    const deliver = (eventId: string) => {
      const payload = JSON.stringify({
        id: eventId,
        object: 'event',
        type: 'payment_intent.succeeded',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: paymentId, object: 'payment_intent', status: 'succeeded' } },
      })
      return client
        .post('/api/hooks/stripe')
        .unsafeJson(payload)
        .header(
          'stripe-signature',
          signStripeStyleWebhook(payload, paymentsConfig.sandbox.webhookSecret)
        )
    }
    const landed = await deliver(`evt_late_${order.id}_1`)
    landed.assertStatus(200)
    landed.assertBodyContains({ outcome: 'late_payment_refunded' })

    // Recorded: the fee call's row says the money moved, and its refund has its own key.
    const fee = await ledger.find(keysOf('fee', order, 1))
    assert.equal(fee!.status, 'succeeded')
    assert.equal(fee!.gatewayRef, paymentId)
    const refund = await ledger.find(paymentKeys.lateRefund(order, paymentId))
    assert.include(refund!.serialize(), { status: 'succeeded', amountCents: 2600, kind: 'refund' })
    const intent = await db.from('sandbox_payment_intents').where('id', paymentId).first()
    assert.equal(intent.amount_refunded, 2600)
    // The order's record is unchanged: the fee stays waived, nothing is owed or kept.
    await order.refresh()
    assert.equal(order.feeStatus, 'waived')
    assert.equal(order.refundedCents, 0)
    const mails = await emailsOf(order.id, 'late_payment_refunded')
    assert.lengthOf(mails, 1)
    assert.include(mails[0].text_body, '$26.00')
    const shown = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    const lines = shown.body().timeline.filter((line: any) => line.kind === 'late_payment_refunded')
    assert.lengthOf(lines, 1)
    assert.include(lines[0].note, '$26.00')

    // The provider's notice again (another event id): nothing moves twice.
    const again = await deliver(`evt_late_${order.id}_2`)
    again.assertStatus(200)
    const refunds = await db.from('sandbox_refunds').where('payment_intent_id', paymentId)
    assert.lengthOf(refunds, 1)
    assert.lengthOf(await emailsOf(order.id, 'late_payment_refunded'), 1)
    assert.lengthOf(await timelineOf(order.id, 'late_payment_refunded'), 1)
  })
})
