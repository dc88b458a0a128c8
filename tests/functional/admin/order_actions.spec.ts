import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import AuditLog from '#core/models/audit_log'
import Order from '#orders/models/order'
import Product from '#catalog/models/product'
import PromoCode from '#checkout/models/promo_code'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderSettlement } from '#payments/services/order_settlement'
import { paymentService, paymentKeys } from '#payments/services/payment_service'
import {
  adminWithToken,
  customerWithCard,
  customerWithToken,
  pendingOrder,
  placeHolds,
  productFor,
  profileFor,
  saveCardFor,
  TEST_CARDS,
} from '#tests/helpers'

type LedgerRow = {
  id: number
  kind: string
  amountCents: number
  status: string
  idempotencyKey: string
  createdAt: string
  completedAt: string | null
  errorCode: string | null
}

/** The product's release time has come (orders are bought before it; marked after it). */
async function releaseNow(productId: number) {
  await Product.query()
    .where('id', productId)
    .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
}

const auditOf = (publicId: string) =>
  AuditLog.query().where('subject_type', 'order').where('subject_id', publicId).orderBy('id')

test.group('Admin orders: mark a result', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('mark success charges the fee once, releases the hold and is audited', async ({
    client,
    assert,
  }) => {
    const { token, user: admin } = await adminWithToken()
    const { order, product } = await pendingOrder({ product: { priceCents: 4500 } })
    await placeHolds()
    await releaseNow(product.id)

    const response = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'success', confirmationNumber: 'NK-77' })
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.id, order.publicId)
    assert.equal(body.status, 'success')
    assert.equal(body.statusLabel, 'Success')
    assert.equal(body.confirmationNumber, 'NK-77')
    assert.isString(body.succeededAt)
    const ledger = body.ledger as LedgerRow[]
    assert.deepEqual(
      ledger.map((row) => [row.kind, row.status, row.amountCents, row.idempotencyKey]),
      [
        ['hold', 'succeeded', 100, paymentKeys.hold(order)],
        ['fee', 'succeeded', 4500, paymentKeys.fee(order)],
        ['hold_release', 'succeeded', 100, paymentKeys.holdRelease(order)],
      ]
    )
    assert.isString(ledger[1].completedAt)
    for (const row of ledger) {
      assert.notProperty(row, 'gatewayRef')
      assert.notProperty(row, 'errorMessage')
    }

    // Marking again is a no-op for the money (no second fee), and still audited.
    const again = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'success', confirmationNumber: 'IGNORED' })
    again.assertStatus(200)
    assert.lengthOf(again.body().ledger, 3)
    assert.equal(again.body().confirmationNumber, 'NK-77')
    await order.refresh()
    assert.equal(order.feeStatus, 'paid')
    assert.equal(order.holdStatus, 'released')

    const audit = await auditOf(order.publicId)
    assert.deepEqual(
      audit.map((entry) => [entry.action, entry.actorUserId, entry.actorLabel]),
      [
        ['order.mark_success', admin.id, admin.email],
        ['order.mark_success', admin.id, admin.email],
      ]
    )
    assert.deepInclude(audit[0].meta!, { from: 'pending', to: 'success', changed: true })
    assert.deepInclude(audit[1].meta!, { from: 'success', changed: false })
    assert.deepEqual(again.body().auditTrail.length, 2)
  })

  test('mark fail: no fee, hold released, shown as Not secured with the reason', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order, product } = await pendingOrder()
    await placeHolds()
    await releaseNow(product.id)
    await orderLifecycle.markProcessing(order)

    const response = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'fail', reason: 'Retailer cancelled the checkout' })
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.status, 'fail')
    assert.equal(body.statusLabel, 'Not secured')
    assert.equal(
      body.outcomeWords,
      'Not secured: the retailer did not complete the checkout. Nothing charged; your $1.00 check was released.'
    )
    assert.equal(body.failReason, 'Retailer cancelled the checkout')
    assert.deepEqual(
      (body.ledger as LedgerRow[]).map((row) => [row.kind, row.status]),
      [
        ['hold', 'succeeded'],
        ['hold_release', 'succeeded'],
      ]
    )
    const [entry] = await auditOf(order.publicId)
    assert.equal(entry.action, 'order.mark_fail')
    assert.equal(entry.reason, 'Retailer cancelled the checkout')
    assert.deepInclude(entry.meta!, { from: 'processing', to: 'fail' })
  })

  test('impossible transitions are refused with 409 and change nothing', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order: cancelled } = await pendingOrder()
    await orderSettlement.cancel(cancelled, { reason: 'test' })
    const { order: done } = await pendingOrder()
    await placeHolds()
    await orderSettlement.succeed(done)

    const onCancelled = await client
      .post(`/api/admin/orders/${cancelled.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'success' })
    onCancelled.assertStatus(409)
    assert.equal(onCancelled.body().code, 'invalid_transition')
    assert.equal(
      onCancelled.body().error,
      'This order is cancelled; it cannot be marked successful.'
    )

    const failAfterSuccess = await client
      .post(`/api/admin/orders/${done.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'fail' })
    failAfterSuccess.assertStatus(409)
    assert.equal(
      failAfterSuccess.body().error,
      'This order is successful; it cannot be marked failed.'
    )
    await done.refresh()
    await cancelled.refresh()
    assert.equal(done.status, 'success')
    assert.equal(done.feeStatus, 'paid')
    assert.equal(cancelled.status, 'cancelled')
    assert.lengthOf(await auditOf(done.publicId), 0)

    const badStatus = await client
      .post(`/api/admin/orders/${done.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'refunded' })
    badStatus.assertStatus(422)
    assert.property(badStatus.body().errors, 'status')

    const unknown = await client
      .post('/api/admin/orders/6f1c1d1e-0000-4000-8000-000000000000/mark')
      .bearerToken(token)
      .json({ status: 'success' })
    unknown.assertStatus(404)
    assert.equal(unknown.body().code, 'order_not_found')
  })
})

test.group('Admin orders: create for a customer', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('POST /api/admin/orders/create places the order through checkout, audited', async ({
    client,
    assert,
  }) => {
    const { token, user: admin } = await adminWithToken()
    const { user } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ totalStock: 5, stockTaken: 0, priceCents: 3000 })

    const response = await client.post('/api/admin/orders/create').bearerToken(token).json({
      userId: user.uuid,
      productId: product.id,
      style: 'white',
      size: '9',
      profileId: profile.publicId,
    })
    response.assertStatus(201)
    const { success, order } = response.body()
    assert.isTrue(success)
    assert.equal(order.status, 'pending')
    assert.equal(order.customerId, user.uuid)
    assert.equal(order.email, user.email)
    assert.equal(order.style, 'White')
    assert.equal(order.priceCents, 3000)
    assert.equal(order.profileId, profile.publicId)
    await product.refresh()
    assert.equal(product.stockTaken, 1)

    const [entry] = await auditOf(order.id)
    assert.equal(entry.action, 'order.create')
    assert.equal(entry.actorUserId, admin.id)
    assert.deepInclude(entry.meta!, { customerId: user.uuid, productId: product.id })

    // The checkout's duplicate rule applies to admins too.
    const duplicate = await client.post('/api/admin/orders').bearerToken(token).json({
      email: user.email,
      productId: product.id,
      style: 'Black',
      size: '10',
      profileId: profile.publicId,
    })
    duplicate.assertStatus(409)
    assert.equal(duplicate.body().code, 'duplicate')
    await product.refresh()
    assert.equal(product.stockTaken, 1)
  })

  test('REST POST /api/admin/orders by e-mail answers the record, with the promo', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    await PromoCode.create({ code: 'ADMIN20', percent: 20, active: true, uses: 0, maxUses: null })
    const { user } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ priceCents: 2500 })

    const response = await client.post('/api/admin/orders').bearerToken(token).json({
      email: user.email.toUpperCase(),
      productId: product.id,
      style: 'Black',
      size: '9',
      profileId: profile.publicId,
      promoCode: 'admin20',
    })
    response.assertStatus(201)
    const record = response.body()
    assert.match(record.id, /^[0-9a-f-]{36}$/)
    assert.equal(record.promoCode, 'ADMIN20')
    assert.equal(record.priceCents, 2000)
    assert.isArray(record.ledger)
    assert.isNotNull(await Order.findBy('publicId', record.id))
  })

  test('checkout rules refuse clearly: no card, sold out, missing customer', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { user: noCard } = await customerWithToken()
    const profile = await profileFor(noCard)
    const product = await productFor()

    const withoutCard = await client.post('/api/admin/orders/create').bearerToken(token).json({
      userId: noCard.uuid,
      productId: product.id,
      style: 'Black',
      size: '9',
      profileId: profile.publicId,
    })
    withoutCard.assertStatus(402)
    assert.equal(withoutCard.body().code, 'card_required')

    const { user } = await customerWithCard()
    const ownProfile = await profileFor(user)
    const soldOut = await productFor({ totalStock: 1, stockTaken: 1 })
    const full = await client.post('/api/admin/orders/create').bearerToken(token).json({
      userId: user.uuid,
      productId: soldOut.id,
      style: 'Black',
      size: '9',
      profileId: ownProfile.publicId,
    })
    full.assertStatus(409)
    assert.equal(full.body().code, 'sold_out')

    // Someone else's profile is not this customer's.
    const foreign = await client.post('/api/admin/orders/create').bearerToken(token).json({
      userId: user.uuid,
      productId: product.id,
      style: 'Black',
      size: '9',
      profileId: profile.publicId,
    })
    assert.oneOf(foreign.status(), [403, 404])

    const nobody = await client.post('/api/admin/orders/create').bearerToken(token).json({
      productId: product.id,
      profileId: ownProfile.publicId,
    })
    nobody.assertStatus(422)
    assert.equal(nobody.body().errors.userId, 'Please choose the customer (userId or email).')

    assert.lengthOf(await Order.query().where('product_id', product.id), 0)
    assert.lengthOf(await AuditLog.query().where('action', 'order.create'), 0)
  })
})

test.group('Admin orders: delete (cancel)', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a pending order is cancelled: slot back, hold released, row kept, audited', async ({
    client,
    assert,
  }) => {
    const { token, user: admin } = await adminWithToken()
    const { order, product } = await pendingOrder()
    await placeHolds()
    await product.refresh()
    assert.equal(product.stockTaken, 1)

    const response = await client
      .delete(`/api/admin/orders/id/${order.publicId}`)
      .bearerToken(token)
      .json({ reason: 'Customer asked by phone' })
    response.assertStatus(200)
    assert.isTrue(response.body().success)
    assert.equal(response.body().order.status, 'cancelled')
    assert.equal(response.body().order.failReason, 'Customer asked by phone')
    assert.deepEqual(
      (response.body().order.ledger as LedgerRow[]).map((row) => row.kind),
      ['hold', 'hold_release']
    )
    await product.refresh()
    assert.equal(product.stockTaken, 0)
    await order.refresh()
    assert.equal(order.status, 'cancelled')
    assert.equal(order.holdStatus, 'released')

    const [entry] = await auditOf(order.publicId)
    assert.equal(entry.action, 'order.cancel')
    assert.equal(entry.actorUserId, admin.id)
    assert.equal(entry.reason, 'Customer asked by phone')

    // Deleting it again (react-admin's REST delete) answers the record and changes nothing.
    const again = await client.delete(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    again.assertStatus(200)
    assert.equal(again.body().id, order.publicId)
    assert.equal(again.body().status, 'cancelled')
    await product.refresh()
    assert.equal(product.stockTaken, 0)
    assert.lengthOf(await auditOf(order.publicId), 1)
  })

  test('REST delete of a pending order answers the cancelled record', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order } = await pendingOrder()
    const response = await client.delete(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.body().id, order.publicId)
    assert.equal(response.body().status, 'cancelled')
    assert.equal(response.body().failReason, 'Cancelled by an admin.')
  })

  test('processing and successful orders are refused with 409', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const { order: processing } = await pendingOrder()
    const { order: done } = await pendingOrder()
    await placeHolds()
    await orderLifecycle.markProcessing(processing)
    await orderSettlement.succeed(done)

    const refusedProcessing = await client
      .delete(`/api/admin/orders/${processing.publicId}`)
      .bearerToken(token)
    refusedProcessing.assertStatus(409)
    assert.equal(refusedProcessing.body().code, 'invalid_transition')
    assert.equal(
      refusedProcessing.body().error,
      'This order is being processed; it cannot be cancelled or deleted any more.'
    )
    const refusedDone = await client
      .delete(`/api/admin/orders/id/${done.publicId}`)
      .bearerToken(token)
    refusedDone.assertStatus(409)
    assert.match(refusedDone.body().error, /^This order is successful;/)

    await processing.refresh()
    await done.refresh()
    assert.equal(processing.status, 'processing')
    assert.equal(done.status, 'success')
    const product = await Product.findOrFail(processing.productId)
    assert.equal(product.stockTaken, 1)
  })
})

test.group('Admin dashboard: money from the ledger', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('captured, refunded, due fees and open holds', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const { order: paid } = await pendingOrder({ product: { priceCents: 4000 } })
    const { order: refunded } = await pendingOrder({ product: { priceCents: 1500 } })
    const { order: declined, user } = await pendingOrder({ product: { priceCents: 2200 } })
    await pendingOrder()
    await placeHolds()
    // This customer's card now declines every charge: the fee stays due.
    await saveCardFor(user, TEST_CARDS.declinesCharges)
    await orderSettlement.succeed(paid)
    await orderSettlement.succeed(refunded)
    await paymentService.refund(refunded)
    await orderSettlement.succeed(declined)

    const response = await client.get('/api/admin/dashboard').bearerToken(token)
    response.assertStatus(200)
    const { fees, unavailable } = response.body()
    assert.equal(fees.capturedCents, 5500)
    assert.equal(fees.refundedCents, 1500)
    assert.equal(fees.netCents, 4000)
    assert.equal(fees.dueCents, 2200)
    assert.equal(fees.dueOrders, 1)
    assert.equal(fees.holdsOpen, 1)
    assert.equal(fees.holdsOpenCents, 100)
    assert.notProperty(unavailable, 'fees.capturedCents')
    assert.notProperty(unavailable, 'fees.refundedCents')
  })
})
