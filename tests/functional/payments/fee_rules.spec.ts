import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import { orderSettlement } from '#payments/services/order_settlement'
import { paymentService } from '#payments/services/payment_service'
import { releaseRunner } from '#release/services/release_runner'
import { adminWithToken, pendingOrder, placeHolds, saveCardFor, TEST_CARDS } from '#tests/helpers'

/** The fees the buyer's card was charged for the order, in cents (the gateway's own record). */
async function feesCharged(order: Order) {
  const intents = await db
    .from('sandbox_payment_intents')
    .where('capture_method', 'automatic')
    .where('metadata', 'like', `%${order.publicId}%`)
    .where('status', 'succeeded')
    .orderBy('created_at')
  return intents.map((intent) => Number(intent.amount))
}

const feeDeclinedEmails = (order: Order) =>
  db.from('email_messages').where('order_id', order.id).where('template', 'fee_declined')

/** A successful order whose fee the card declined (`failed`) or sent to 3-D Secure. */
async function succeededWithFeeRefused(card: string, priceCents: number) {
  const { user, order } = await pendingOrder({ product: { priceCents } })
  await placeHolds()
  await saveCardFor(user, card)
  await orderSettlement.succeed(order)
  await order.refresh()
  return { user, order }
}

test.group('Fee rules: what the buyer is charged', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a fee never tried is charged once, at the price, when the order succeeds; never again once paid', async ({
    assert,
  }) => {
    const { order } = await pendingOrder({ product: { priceCents: 4500 } })
    await placeHolds()
    await orderSettlement.succeed(order)
    assert.deepEqual(await feesCharged(order), [4500])

    // The next run's retry and a settle over again charge nothing more.
    await releaseRunner.retryFee(order.id)
    await orderSettlement.settle(order.id)
    assert.deepEqual(await feesCharged(order), [4500])
    await order.refresh()
    assert.equal(order.feeStatus, 'paid')
  })

  for (const [refusal, card, status] of [
    ['declined', TEST_CARDS.declinesCharges, 'failed'],
    ['waiting for authentication', TEST_CARDS.needsAuthentication, 'requires_action'],
  ] as const) {
    test(`a fee ${refusal} is charged on the next run's retry, once a card that works is saved`, async ({
      assert,
    }) => {
      const { user, order } = await succeededWithFeeRefused(card, 3000)
      assert.equal(order.feeStatus, status)
      assert.deepEqual(await feesCharged(order), [])

      await saveCardFor(user, TEST_CARDS.ok)
      await releaseRunner.retryFee(order.id)
      assert.deepEqual(await feesCharged(order), [3000])
      await order.refresh()
      assert.equal(order.feeStatus, 'paid')
    })
  }

  test('a refunded fee is never charged again', async ({ assert }) => {
    const { order } = await pendingOrder({ product: { priceCents: 2000 } })
    await placeHolds()
    await orderSettlement.succeed(order)
    await paymentService.refund(order)
    await order.refresh()
    assert.equal(order.feeStatus, 'refunded')

    await releaseRunner.retryFee(order.id)
    await orderSettlement.settle(order.id)
    assert.deepEqual(await feesCharged(order), [2000])
    await order.refresh()
    assert.equal(order.feeStatus, 'refunded')
    assert.equal(order.refundedCents, 2000)
  })

  test('a waived fee is never charged again, nor asked for, even with a card that works', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { user, order } = await succeededWithFeeRefused(TEST_CARDS.declinesCharges, 2200)
    assert.lengthOf(await feeDeclinedEmails(order), 1)
    const waived = await client
      .post(`/api/admin/orders/${order.publicId}/waive-fee`)
      .bearerToken(token)
      .json({ reason: 'Card expired, goodwill' })
    waived.assertStatus(200)

    await saveCardFor(user, TEST_CARDS.ok)
    await releaseRunner.retryFee(order.id)
    await orderSettlement.settle(order.id)
    assert.deepEqual(await feesCharged(order), [])
    assert.lengthOf(await feeDeclinedEmails(order), 1)
    await order.refresh()
    assert.equal(order.feeStatus, 'waived')
  })
})
