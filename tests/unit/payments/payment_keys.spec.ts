import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import paymentsConfig from '#config/payments'
import { declineMessage } from '#payments/gateways/payment_gateway'
import { keysOf, paymentKeys } from '#payments/services/payment_service'

test.group('Payment idempotency keys and decline messages', () => {
  test('keys carry the installation id, the order public id and the purpose', ({ assert }) => {
    const install = paymentsConfig.installationId
    assert.match(install, /^[A-Za-z0-9_]{8,64}$/)
    const order = { id: 42, publicId: '7f1c9a52-0d3e-4a55-9b1e-3c2f4e5d6a7b' }
    const uuid = order.publicId
    assert.equal(paymentKeys.hold(order), `${install}-${uuid}-hold`)
    assert.equal(paymentKeys.holdRelease(order), `${install}-${uuid}-hold-release`)
    assert.equal(paymentKeys.fee(order), `${install}-${uuid}-fee`)
    assert.equal(paymentKeys.fee(order, 1), `${install}-${uuid}-fee`)
    assert.equal(paymentKeys.fee(order, 3), `${install}-${uuid}-fee-3`)
    assert.equal(paymentKeys.refund(order), `${install}-${uuid}-refund`)
    assert.equal(paymentKeys.saveCard('u-1', 'tok_1'), `${install}-user-u-1-card-tok_1`)
  })

  test('the same order row id after a database reset gets another key', ({ assert }) => {
    const before = { id: 12, publicId: randomUUID() }
    const afterReset = { id: 12, publicId: randomUUID() }
    assert.notEqual(paymentKeys.hold(before), paymentKeys.hold(afterReset))
    assert.notInclude(paymentKeys.hold(before), ':12:')
  })

  test('the keys of earlier versions are known, so their ledger rows are still found', ({
    assert,
  }) => {
    const order = { id: 42, publicId: randomUUID() }
    assert.deepEqual(keysOf('hold', order), {
      key: paymentKeys.hold(order),
      legacyKey: 'order:42:hold',
    })
    assert.equal(keysOf('holdRelease', order).legacyKey, 'order:42:hold-release')
    assert.equal(keysOf('fee', order).legacyKey, 'order:42:fee')
    assert.equal(keysOf('fee', order, 2).legacyKey, 'order:42:fee:2')
    assert.equal(keysOf('fee', order, 2).key, paymentKeys.fee(order, 2))
    assert.equal(keysOf('refund', order).legacyKey, 'order:42:refund')
    assert.equal(keysOf('saveCard', 'u-1', 'tok_1').legacyKey, 'user:u-1:card:tok_1')
  })

  test("a second hold round or refund has its own key and never an earlier version's", ({
    assert,
  }) => {
    const order = { id: 42, publicId: randomUUID() }
    assert.notEqual(paymentKeys.hold(order, 2), paymentKeys.hold(order))
    assert.notEqual(paymentKeys.holdRelease(order, 2), paymentKeys.holdRelease(order))
    assert.notEqual(paymentKeys.refund(order, 2), paymentKeys.refund(order))
    // The earlier format had first rounds only: a round-2 call must not resume round 1's row.
    assert.isNull(keysOf('hold', order, 2).legacyKey)
    assert.isNull(keysOf('holdRelease', order, 2).legacyKey)
    assert.isNull(keysOf('refund', order, 2).legacyKey)
  })

  test('customers get plain wording, never the provider text', ({ assert }) => {
    assert.equal(declineMessage('insufficient_funds'), 'Your card has insufficient funds.')
    assert.equal(declineMessage('stolen_card'), 'Your card was declined.')
    assert.include(declineMessage('authentication_required'), 'authentication')
    assert.equal(declineMessage(undefined), 'Your card was declined.')
  })
})
