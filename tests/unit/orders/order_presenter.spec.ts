import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import Order from '#orders/models/order'
import { presentOrder } from '#orders/services/order_presenter'

test.group('Order presenter', () => {
  test('shows dollars and cents, the payment state, and never the sealed copy', ({ assert }) => {
    const order = new Order()
    order.merge({
      publicId: '5b0c3f56-0000-4000-8000-000000000001',
      productId: 3,
      productTitle: 'Air Max 1',
      basePriceCents: 4500,
      priceCents: 4050,
      promoCode: 'DROP10',
      promoPercent: 10,
      style: 'OS',
      size: 'OS',
      email: 'a@example.test',
      name: 'A',
      status: 'fail',
      failReason: 'retailer_declined proxy 10.2.3.4',
      failCode: 'declined',
      profileId: 'profile-uuid',
      acoVault: 'k1:secret-sealed-copy',
      holdStatus: 'released',
      holdAmountCents: 100,
      holdPaymentId: 'pi_secret',
      holdErrorCode: null,
      feeStatus: 'none',
      feePaymentId: null,
      refundedCents: 0,
      confirmationNumber: null,
    })
    order.createdAt = DateTime.fromISO('2026-03-01T12:00:00Z')
    const shown = presentOrder(order)
    assert.include(shown, {
      orderId: '5b0c3f56-0000-4000-8000-000000000001',
      price: 40.5,
      priceCents: 4050,
      status: 'fail',
      // The customer's words, never the engine's own text.
      statusReason: 'the retailer declined the payment for the item.',
    })
    assert.equal(shown.hold.status, 'released')
    assert.equal(Date.parse(shown.orderDate!), Date.parse('2026-03-01T12:00:00Z'))
    const text = JSON.stringify(shown)
    assert.notInclude(text, 'secret')
    assert.notInclude(text, '10.2.3.4')
  })
})
