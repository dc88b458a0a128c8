import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import Order from '#orders/models/order'
import { cardVault } from '#core/services/card_vault'
import { releaseRunner } from '#release/services/release_runner'
import { orderSettlement } from '#payments/services/order_settlement'
import { adminOrderActions } from '#admin/services/admin_order_actions_service'
import { releasedProductWithOrders } from '#tests/support/release'
import { adminWithToken } from '#tests/helpers'
import type { CheckoutEngine } from '#release/services/checkout_engines'

/** The card inside an order's sealed snapshot, decrypted as the server would. */
async function snapshotCard(orderId: number) {
  const order = await Order.findOrFail(orderId)
  return cardVault.open<{ card: Record<string, string> }>(order.acoVault!).card
}

/** Every other order succeeds, so one run ends orders both ways. */
const alternating = (): CheckoutEngine => {
  let count = 0
  return {
    name: 'simulator',
    needsCardData: false,
    submit: async () =>
      count++ % 2 === 0
        ? { status: 'success', confirmationNumber: `CONF-${count}` }
        : { status: 'fail', reason: 'Sold out before checkout.' },
  }
}

test.group('Card data of orders', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('after a release run no final order keeps a card number or CVV', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(4)
    for (const order of orders) {
      const card = await snapshotCard(order.id)
      assert.equal(card.code, '123')
    }

    const report = await releaseRunner.run({ productId: product.id, engine: alternating() })
    assert.equal(report.succeeded, 2)
    assert.equal(report.failed, 2)
    for (const order of orders) {
      const card = await snapshotCard(order.id)
      assert.notProperty(card, 'number')
      assert.notProperty(card, 'code')
      assert.equal(card.last4, '4242')
      assert.isString(card.month)
    }
  })

  test('a cancelled order loses its card data; a pending one keeps it', async ({ assert }) => {
    const { orders } = await releasedProductWithOrders(2)
    await orderSettlement.cancel(orders[0], { reason: 'Customer changed their mind.' })
    assert.notProperty(await snapshotCard(orders[0].id), 'code')
    const kept = await snapshotCard(orders[1].id)
    assert.equal(kept.number, '4242424242424242')
  })

  test('an order whose card copy no key opens still ends normally', async ({ assert }) => {
    const { orders } = await releasedProductWithOrders(1)
    await Order.query().where('id', orders[0].id).update({ aco_vault: 'v1:not-ours' })
    const { order } = await orderSettlement.cancel(orders[0], { reason: 'Customer asked.' })
    assert.equal(order.status, 'cancelled')
  })

  test('the ACO download of a final order is refused with the reason', async ({
    client,
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1)
    await orderSettlement.fail(orders[0], { reason: 'Sold out before checkout.' })
    const admin = await adminWithToken()
    const response = await client
      .get(`/api/admin/aco/getJSON/${orders[0].publicId}`)
      .qs({ reason: 'Manual checkout for support ticket 7' })
      .bearerToken(admin.token)
    response.assertStatus(409)
    assert.equal(response.body().code, 'order_final')
    assert.include(response.body().error, 'card data was deleted')
    assert.notInclude(response.text(), '4242424242424242')
  })

  test('a failed order tried again gets the card from its profile back', async ({ assert }) => {
    const { orders } = await releasedProductWithOrders(1)
    await orderSettlement.fail(orders[0], { reason: 'Retailer queue timed out.' })
    assert.notProperty(await snapshotCard(orders[0].id), 'number')
    const admin = await adminWithToken()
    await adminOrderActions.retry(
      orders[0].publicId,
      { reason: 'The bot crashed; trying again.' },
      { actor: { id: admin.user.id, email: admin.user.email }, ip: null }
    )
    const card = await snapshotCard(orders[0].id)
    assert.equal(card.number, '4242424242424242')
    assert.equal(card.code, '123')
  })
})
