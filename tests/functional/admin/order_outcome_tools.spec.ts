import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import AuditLog from '#core/models/audit_log'
import Order from '#orders/models/order'
import Product from '#catalog/models/product'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderSettlement } from '#payments/services/order_settlement'
import { releaseRunner } from '#release/services/release_runner'
import { SimulatorEngine } from '#release/services/checkout_engines'
import { releasedProductWithOrders } from '#tests/support/release'
import { paymentKeys } from '#payments/services/payment_service'
import { adminWithToken, pendingOrder, placeHolds, saveCardFor, TEST_CARDS } from '#tests/helpers'

async function releaseNow(productId: number) {
  await Product.query()
    .where('id', productId)
    .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
}

const emailsOf = (orderId: number, template?: string) => {
  const query = db.from('email_messages').where('order_id', orderId).orderBy('id', 'asc')
  if (template) query.where('template', template)
  return query
}

const auditOf = (publicId: string) =>
  AuditLog.query().where('subject_type', 'order').where('subject_id', publicId).orderBy('id')

/** The sandbox gateway's own record of the order's fee: the intent and its refunds. */
async function gatewayFee(order: Order) {
  await order.refresh()
  const intent = await db.from('sandbox_payment_intents').where('id', order.feePaymentId!).first()
  const refunds = await db
    .from('sandbox_refunds')
    .where('payment_intent_id', order.feePaymentId!)
    .orderBy('id')
  return { intent, refunds }
}

/** A successful order of a released product, its fee charged (priceCents). */
async function paidOrder(priceCents = 3000) {
  const { order, product, ...rest } = await pendingOrder({ product: { priceCents } })
  await placeHolds()
  await releaseNow(product.id)
  await orderSettlement.succeed(order, { confirmationNumber: 'RT-1' })
  await order.refresh()
  return { order, product, ...rest }
}

test.group('Admin orders: one outcome path from the console', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('Mark success e-mails the customer once, and shows on the timeline', async ({
    client,
    assert,
  }) => {
    const { token, user: admin } = await adminWithToken()
    const { order, product } = await pendingOrder({ product: { priceCents: 4200 } })
    await placeHolds()
    await releaseNow(product.id)

    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await client
        .post(`/api/admin/orders/${order.publicId}/mark`)
        .bearerToken(token)
        .json({ status: 'success', confirmationNumber: 'NK-1' })
      response.assertStatus(200)
    }
    const secured = await emailsOf(order.id, 'order_secured')
    assert.lengthOf(secured, 1)
    assert.include(secured[0].text_body, 'NK-1')

    const shown = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    const timeline = shown.body().timeline
    assert.lengthOf(timeline, 1)
    assert.deepInclude(timeline[0], {
      kind: 'outcome',
      from: 'pending',
      to: 'success',
      source: 'manual',
      actor: admin.email,
    })
  })

  test('Mark fail tells the customer in their own words; the raw text stays for admins', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order, product } = await pendingOrder()
    await placeHolds()
    await releaseNow(product.id)
    const raw = 'ERR_PROXY_403 akamai blocked 10.2.3.4 card 4242424242424242 OOS sold out'

    const response = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'fail', reason: raw })
    response.assertStatus(200)
    assert.equal(response.body().failReason, raw)
    assert.equal(response.body().failCode, 'sold_out')

    const [mail] = await emailsOf(order.id, 'order_failed')
    assert.include(mail.text_body, 'sold out at the retailer')
    for (const secret of ['akamai', '10.2.3.4', '4242', 'ERR_PROXY']) {
      assert.notInclude(mail.text_body, secret)
      assert.notInclude(mail.html_body, secret)
    }
  })

  test('marking an order of a product not released yet is refused, nothing changes', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order } = await pendingOrder()
    await placeHolds()
    const response = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'success' })
    response.assertStatus(409)
    assert.equal(response.body().code, 'product_not_released')
    await order.refresh()
    assert.equal(order.status, 'pending')
    assert.equal(order.feeStatus, 'none')
    assert.lengthOf(await emailsOf(order.id).where('template', 'order_secured'), 0)
  })
})

test.group('Admin orders: tools to put money right', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('refund: a partial refund, a second partial with its own key, then the rest', async ({
    client,
    assert,
  }) => {
    const { token, user: admin } = await adminWithToken()
    const { order } = await paidOrder(3000)

    // A form or a text body is never read as "refund everything": 415, nothing moves.
    for (const tool of ['refund', 'waive-fee', 'retry', 'correct']) {
      const form = await client
        .post(`/api/admin/orders/${order.publicId}/${tool}`)
        .bearerToken(token)
        .form({ reason: 'Sent as a form' })
      form.assertStatus(415)
    }
    assert.lengthOf(await gatewayFee(order).then(({ refunds }) => refunds), 0)

    const first = await client
      .post(`/api/admin/orders/${order.publicId}/refund`)
      .bearerToken(token)
      .json({ amount: 5, reason: 'Late shipping goodwill' })
    first.assertStatus(200)
    assert.equal(first.body().feeStatus, 'paid')
    assert.equal(first.body().refundedCents, 500)

    const second = await client
      .post(`/api/admin/orders/${order.publicId}/refund`)
      .bearerToken(token)
      .json({ amount: 7.5, reason: 'Box damaged' })
    second.assertStatus(200)
    assert.equal(second.body().refundedCents, 1250)

    const tooMuch = await client
      .post(`/api/admin/orders/${order.publicId}/refund`)
      .bearerToken(token)
      .json({ amount: 20, reason: 'More than is left' })
    tooMuch.assertStatus(422)
    assert.equal(tooMuch.body().code, 'invalid_refund_amount')

    const rest = await client
      .post(`/api/admin/orders/${order.publicId}/refund`)
      .bearerToken(token)
      .json({ reason: 'Customer asked for all of it back' })
    rest.assertStatus(200)
    assert.equal(rest.body().feeStatus, 'refunded')
    assert.equal(rest.body().refundedCents, 3000)

    const again = await client
      .post(`/api/admin/orders/${order.publicId}/refund`)
      .bearerToken(token)
      .json({ reason: 'Once more' })
    again.assertStatus(409)
    assert.equal(again.body().code, 'already_refunded')

    // The gateway's own record: one charge, three refunds adding up to the fee.
    const { intent, refunds } = await gatewayFee(order)
    assert.equal(intent.amount, 3000)
    assert.equal(intent.amount_refunded, 3000)
    assert.sameMembers(
      refunds.map((row) => row.amount),
      [500, 750, 1750]
    )
    const ledger = await db
      .from('payment_ledger')
      .where('order_id', order.id)
      .whereIn('kind', ['fee', 'refund'])
      .orderBy('id')
    assert.deepEqual(
      ledger.map((row) => [row.kind, row.idempotency_key, row.amount_cents, row.status]),
      [
        ['fee', paymentKeys.fee(order), 3000, 'succeeded'],
        ['refund', paymentKeys.refund(order), 500, 'succeeded'],
        ['refund', paymentKeys.refund(order, 2), 750, 'succeeded'],
        ['refund', paymentKeys.refund(order, 3), 1750, 'succeeded'],
      ]
    )
    const mails = await emailsOf(order.id, 'fee_refunded')
    assert.lengthOf(mails, 3)
    assert.include(mails[0].text_body, '$5.00')
    const audit = await auditOf(order.publicId).where('action', 'order.fee_refund')
    assert.lengthOf(audit, 3)
    assert.equal(audit[0].actorUserId, admin.id)
    assert.equal(audit[0].reason, 'Late shipping goodwill')
    const shown = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    const timeline = shown.body().timeline.filter((event: any) => event.kind === 'fee_refund')
    assert.lengthOf(timeline, 3)
  })

  test('waive a fee that is due: never charged, the customer told; a paid fee is refused', async ({
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

    const noReason = await client
      .post(`/api/admin/orders/${order.publicId}/waive-fee`)
      .bearerToken(token)
      .json({})
    noReason.assertStatus(422)

    const waived = await client
      .post(`/api/admin/orders/${order.publicId}/waive-fee`)
      .bearerToken(token)
      .json({ reason: 'Card expired, goodwill' })
    waived.assertStatus(200)
    assert.equal(waived.body().feeStatus, 'waived')
    assert.isFalse(waived.body().feeDue)

    // A later run does not retry a waived fee.
    await Order.query().where('id', order.id).update({ updated_at: '2000-01-01 00:00:00' })
    await releaseRunner.run({ productId: product.id, engine: new SimulatorEngine() })
    const fees = await db.from('payment_ledger').where('order_id', order.id).where('kind', 'fee')
    assert.lengthOf(fees, 1)
    assert.lengthOf(await emailsOf(order.id, 'fee_waived'), 1)

    const { order: paid } = await paidOrder()
    const refused = await client
      .post(`/api/admin/orders/${paid.publicId}/waive-fee`)
      .bearerToken(token)
      .json({ reason: 'Not due' })
    refused.assertStatus(409)
    assert.equal(refused.body().code, 'fee_not_due')
  })

  test('correct success to fail: the fee is refunded once, the customer told once', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order } = await paidOrder(2500)
    const response = await client
      .post(`/api/admin/orders/${order.publicId}/correct`)
      .bearerToken(token)
      .json({ reason: 'Retailer cancelled: address rejected by fraud check' })
    response.assertStatus(200)
    assert.equal(response.body().status, 'fail')
    assert.equal(response.body().feeStatus, 'refunded')
    assert.equal(response.body().failCode, 'address')

    const again = await client
      .post(`/api/admin/orders/${order.publicId}/correct`)
      .bearerToken(token)
      .json({ reason: 'Twice' })
    again.assertStatus(409)

    const { intent, refunds } = await gatewayFee(order)
    assert.equal(intent.amount_refunded, 2500)
    assert.lengthOf(refunds, 1)
    const mails = await emailsOf(order.id, 'order_corrected')
    assert.lengthOf(mails, 1)
    assert.include(mails[0].text_body, 'shipping address')
    assert.notInclude(mails[0].text_body, 'fraud')
    const auditRows = await auditOf(order.publicId)
    const audit = auditRows.map((row) => row.action)
    assert.include(audit, 'order.correct_fail')
  })

  test('retry a failed order: slot and a new hold, submitted again; refused when sold out', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { product, orders } = await releasedProductWithOrders(2)
    const [order, other] = orders
    await orderLifecycle.markProcessing(order)
    await orderSettlement.fail(order, { reason: 'Queue timed out' })
    await order.refresh()
    assert.equal(order.holdStatus, 'released')

    const response = await client
      .post(`/api/admin/orders/${order.publicId}/retry`)
      .bearerToken(token)
      .json({ reason: 'Bot outage, trying again' })
    response.assertStatus(200)
    assert.equal(response.body().status, 'pending')
    assert.equal(response.body().holdRound, 2)
    await placeHolds()
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    const holds = await db
      .from('payment_ledger')
      .where('order_id', order.id)
      .where('kind', 'hold')
      .orderBy('id')
    assert.deepEqual(
      holds.map((row) => row.idempotency_key),
      [paymentKeys.hold(order), paymentKeys.hold(order, 2)]
    )
    assert.lengthOf(await emailsOf(order.id, 'order_retried'), 1)

    // The next run submits it again; its new outcome is mailed (the first failure was too).
    const report = await releaseRunner.run({
      productId: product.id,
      engine: {
        name: 'simulator' as const,
        needsCardData: false,
        submit: async () => ({ status: 'fail' as const, reason: 'Size unavailable' }),
      },
    })
    assert.isAtLeast(report.submitted, 1)
    await order.refresh()
    assert.equal(order.status, 'fail')
    assert.equal(order.holdStatus, 'released')

    // A failure before release gave the slot back: with none left, a retry is refused.
    await Product.query()
      .where('id', product.id)
      .update({ stock_taken: db.knexRawQuery('total_stock') })
    await Order.query()
      .where('id', other.id)
      .update({ status: 'fail', active_slot: null, slot_returned: true })
    const soldOut = await client
      .post(`/api/admin/orders/${other.publicId}/retry`)
      .bearerToken(token)
      .json({ reason: 'Trying again' })
    soldOut.assertStatus(409)
    assert.equal(soldOut.body().code, 'sold_out')
    await other.refresh()
    assert.equal(other.status, 'fail')
    assert.equal(other.holdRound, 1)
  })

  test('resend all needs a scope; the dry call counts what the send then sends', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { product, orders } = await releasedProductWithOrders(3)
    await pendingOrder()

    const bare = await client.get('/api/admin/orders/resendAll').bearerToken(token)
    bare.assertStatus(422)
    assert.equal(bare.body().code, 'scope_required')

    const ownMail = () =>
      db
        .from('email_messages')
        .whereIn(
          'order_id',
          orders.map((order) => order.id)
        )
        .count('* as total')
    const before = await ownMail()
    const dry = await client
      .get('/api/admin/orders/resendAll')
      .qs({ productId: product.id, dryRun: true })
      .bearerToken(token)
    dry.assertStatus(200)
    assert.equal(dry.body().emails, 3)
    const unchanged = await ownMail()
    assert.equal(Number(unchanged[0].total), Number(before[0].total))

    const sent = await client
      .get('/api/admin/orders/resendAll')
      .qs({ productId: product.id })
      .bearerToken(token)
    sent.assertStatus(200)
    assert.equal(sent.body().sent, 3)
    const resent = await db
      .from('email_messages')
      .whereIn(
        'order_id',
        orders.map((order) => order.id)
      )
      .where('subject', 'like', '[Resent]%')
    assert.lengthOf(resent, 3)

    const none = await client
      .get('/api/admin/orders/resendAll')
      .qs({ productId: product.id, status: 'success', dryRun: true })
      .bearerToken(token)
    assert.equal(none.body().emails, 0)
  })
})
