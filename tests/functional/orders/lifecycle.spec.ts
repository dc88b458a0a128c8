import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import EmailMessage from '#notifications/models/email_message'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderQueries } from '#orders/services/order_queries'
import { orderSettlement } from '#payments/services/order_settlement'
import { paymentService, paymentKeys } from '#payments/services/payment_service'
import { ledger } from '#payments/services/ledger'
import { pendingOrder, placeHolds, saveCardFor, TEST_CARDS } from '#tests/helpers'

const intentsOf = (customerId: string) =>
  db.from('sandbox_payment_intents').where('customer_id', customerId).orderBy('created_at')

async function keysOf(orderId: number) {
  const entries = await PaymentLedgerEntry.query().where('order_id', orderId).orderBy('id')
  return entries.map((entry) => [entry.idempotencyKey, entry.status, entry.amountCents])
}

test.group('Order lifecycle and money', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('success charges the fee once and releases the hold', async ({ assert }) => {
    const { user, order } = await pendingOrder({ product: { priceCents: 4500 } })
    await placeHolds()
    const processing = await orderLifecycle.markProcessing(order)
    assert.equal(processing.status, 'processing')
    assert.isNotNull(processing.processingAt)

    const { order: done, settlement } = await orderSettlement.succeed(order, {
      confirmationNumber: 'NK-1001',
    })
    assert.equal(done.status, 'success')
    assert.equal(done.confirmationNumber, 'NK-1001')
    assert.isNotNull(done.succeededAt)
    assert.equal(settlement.fee!.status, 'paid')
    assert.equal(settlement.hold!.status, 'released')
    assert.equal(done.feeStatus, 'paid')
    assert.equal(done.holdStatus, 'released')
    assert.deepEqual(await keysOf(order.id), [
      [paymentKeys.hold(order), 'succeeded', 100],
      [paymentKeys.fee(order), 'succeeded', 4500],
      [paymentKeys.holdRelease(order), 'succeeded', 100],
    ])
    const intents = await intentsOf(user.gatewayCustomerId!)
    assert.deepEqual(
      intents.map((intent) => [intent.amount, intent.capture_method, intent.status]).sort(),
      [
        [100, 'manual', 'canceled'],
        [4500, 'automatic', 'succeeded'],
      ]
    )

    // Re-running any step is a no-op: no second charge, no new ledger row.
    await orderSettlement.succeed(order, { confirmationNumber: 'ignored' })
    await orderSettlement.settle(order)
    assert.include(await paymentService.chargeFee(order), { status: 'paid' })
    assert.lengthOf(await intentsOf(user.gatewayCustomerId!), 2)
    assert.lengthOf(await keysOf(order.id), 3)
    const reread = await orderQueries.findById(done.id)
    assert.equal(reread.confirmationNumber, 'NK-1001')
  })

  test('a fee charge interrupted by a crash is finished with the same key', async ({ assert }) => {
    const { user, order } = await pendingOrder()
    await placeHolds()
    await db.from('orders').where('id', order.id).update({ status: 'success' })
    // The call went out, then the process died before the ledger row was completed.
    const entry = await ledger.begin({
      key: paymentKeys.fee(order),
      kind: 'fee',
      gateway: 'sandbox',
      orderId: order.id,
      userId: user.id,
      amountCents: order.priceCents,
    })
    const { gateway } = await import('#payments/services/gateway')
    const charged = await gateway().chargeFee({
      customerId: user.gatewayCustomerId!,
      paymentMethodId: user.cardPaymentMethodId!,
      amountCents: order.priceCents,
      description: 'fee',
      metadata: { order_id: order.publicId, purpose: 'fee' },
      idempotencyKey: entry.idempotencyKey,
    })

    const { order: settled } = await orderSettlement.settle(order)
    assert.equal(settled.feeStatus, 'paid')
    assert.equal(settled.feePaymentId, charged.id)
    const intents = await intentsOf(user.gatewayCustomerId!)
    const fees = intents.filter((intent) => intent.capture_method === 'automatic')
    assert.lengthOf(fees, 1)
  })

  test('a declined fee is recorded, the customer told, and a retry after a new card works', async ({
    assert,
  }) => {
    const { user, order } = await pendingOrder({ product: { priceCents: 3000 } })
    await placeHolds()
    // The customer swapped to a card that declines every charge after the hold was placed.
    await saveCardFor(user, TEST_CARDS.declinesCharges)

    const { order: done, settlement } = await orderSettlement.succeed(order)
    assert.equal(done.status, 'success')
    assert.equal(done.feeStatus, 'failed')
    assert.equal(done.holdStatus, 'released')
    assert.deepInclude(settlement.fee, { status: 'failed', code: 'generic_decline' })
    const email = await EmailMessage.query().where('template', 'fee_declined').firstOrFail()
    assert.equal(email.orderId, order.id)
    assert.include(email.textBody, '$30.00')

    // Without asking for a retry nothing is charged again.
    const { length: before } = await intentsOf(user.gatewayCustomerId!)
    assert.include(await paymentService.chargeFee(order), { status: 'failed' })
    assert.lengthOf(await intentsOf(user.gatewayCustomerId!), before)

    await saveCardFor(user, TEST_CARDS.ok)
    const retried = await paymentService.chargeFee(order, { retry: true })
    assert.equal(retried.status, 'paid')
    const paid = await orderQueries.findById(done.id)
    assert.equal(paid.feeStatus, 'paid')
    assert.equal(paid.feeAttempts, 2)
    const second = await ledger.find(paymentKeys.fee(order, 2))
    assert.equal(second!.status, 'succeeded')
    assert.equal((await ledger.find(paymentKeys.fee(order)))!.status, 'failed')
  })

  test('a fee that needs authentication is marked requires_action', async ({ assert }) => {
    const { user, order } = await pendingOrder()
    await placeHolds()
    await saveCardFor(user, TEST_CARDS.needsAuthentication)
    const { order: done } = await orderSettlement.succeed(order)
    assert.equal(done.feeStatus, 'requires_action')
    assert.equal(done.feeErrorCode, 'authentication_required')
    const email = await EmailMessage.query().where('template', 'fee_declined').firstOrFail()
    assert.include(email.textBody, 'authentication')
  })

  test('a failed order is never charged, its hold is released and its slot given back', async ({
    assert,
  }) => {
    const { user, order, product } = await pendingOrder()
    await placeHolds()
    await orderLifecycle.markProcessing(order)
    const { order: failed } = await orderSettlement.fail(order, { reason: 'retailer_declined' })
    assert.equal(failed.status, 'fail')
    assert.isNull(failed.activeSlot)
    assert.isNotNull(failed.failedAt)
    assert.equal(failed.failReason, 'retailer_declined')
    assert.equal(failed.feeStatus, 'none')
    assert.equal(failed.holdStatus, 'released')
    await product.refresh()
    assert.equal(product.stockTaken, 0)
    assert.isNull(await ledger.find(paymentKeys.fee(order)))
    const holds = await intentsOf(user.gatewayCustomerId!)
    assert.isTrue(holds.every((intent) => intent.status === 'canceled'))

    // Idempotent: failing again or succeeding afterwards changes nothing.
    await orderSettlement.fail(order)
    await orderSettlement.succeed(order)
    const still = await orderQueries.findById(failed.id)
    assert.equal(still.status, 'fail')
    await product.refresh()
    assert.equal(product.stockTaken, 0)
  })

  test('a failure after release day keeps the slot counted', async ({ assert }) => {
    const { order, product } = await pendingOrder()
    await db
      .from('products')
      .where('id', product.id)
      .update({ release_at: DateTime.now().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss') })
    await orderLifecycle.markProcessing(order)
    await orderSettlement.fail(order)
    await product.refresh()
    assert.equal(product.stockTaken, 1)
  })

  test('the fee is charged only for a successful order', async ({ assert }) => {
    const { order } = await pendingOrder()
    await assert.rejects(() => paymentService.chargeFee(order), /only for a successful order/)
  })

  test('a paid fee is refunded once', async ({ assert }) => {
    const { user, order } = await pendingOrder({ product: { priceCents: 2000 } })
    await placeHolds()
    await orderSettlement.succeed(order)
    const first = await paymentService.refund(order)
    assert.deepInclude(first, { status: 'refunded', amountCents: 2000 })
    const second = await paymentService.refund(order)
    assert.equal(second.status, 'refunded')
    await order.refresh()
    assert.equal(order.feeStatus, 'refunded')
    assert.equal(order.refundedCents, 2000)
    assert.lengthOf(await db.from('sandbox_refunds'), 1)
    const intents = await intentsOf(user.gatewayCustomerId!)
    const [fee] = intents.filter((intent) => intent.capture_method === 'automatic')
    assert.equal(fee.amount_refunded, 2000)
  })

  test('a 100% promo makes the fee waived, never charged', async ({ assert }) => {
    const { default: PromoCode } = await import('#checkout/models/promo_code')
    await PromoCode.create({ code: 'FREE', percent: 100, active: true, uses: 0, maxUses: null })
    const { order } = await pendingOrder({ promoCode: 'FREE' })
    assert.equal(order.priceCents, 0)
    await placeHolds()
    const { order: done } = await orderSettlement.succeed(order)
    assert.equal(done.feeStatus, 'waived')
    assert.isNull(await ledger.find(paymentKeys.fee(order)))
  })
})
