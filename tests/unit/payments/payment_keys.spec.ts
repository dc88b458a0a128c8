import { test } from '@japa/runner'
import { declineMessage } from '#payments/gateways/payment_gateway'
import { paymentKeys } from '#payments/services/payment_service'

test.group('Payment idempotency keys and decline messages', () => {
  test('keys are fixed per order and purpose', ({ assert }) => {
    assert.equal(paymentKeys.hold(42), 'order:42:hold')
    assert.equal(paymentKeys.holdRelease(42), 'order:42:hold-release')
    assert.equal(paymentKeys.fee(42), 'order:42:fee')
    assert.equal(paymentKeys.fee(42, 1), 'order:42:fee')
    assert.equal(paymentKeys.fee(42, 3), 'order:42:fee:3')
    assert.equal(paymentKeys.refund(42), 'order:42:refund')
    assert.equal(paymentKeys.saveCard('u-1', 'tok_1'), 'user:u-1:card:tok_1')
  })

  test('customers get plain wording, never the provider text', ({ assert }) => {
    assert.equal(declineMessage('insufficient_funds'), 'Your card has insufficient funds.')
    assert.equal(declineMessage('stolen_card'), 'Your card was declined.')
    assert.include(declineMessage('authentication_required'), 'authentication')
    assert.equal(declineMessage(undefined), 'Your card was declined.')
  })
})
