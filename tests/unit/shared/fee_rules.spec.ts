import { test } from '@japa/runner'
import { feeStatusAfterDecline, isFeeDue } from '#shared/vocabulary'

test.group('Fee rules: when a fee is owed', () => {
  test('a fee is due only on a successful order whose charge was declined or awaits the customer', ({
    assert,
  }) => {
    assert.isTrue(isFeeDue({ status: 'success', feeStatus: 'failed' }))
    assert.isTrue(isFeeDue({ status: 'success', feeStatus: 'requires_action' }))
    for (const feeStatus of ['none', 'paid', 'refunded', 'waived']) {
      assert.isFalse(isFeeDue({ status: 'success', feeStatus }), feeStatus)
    }
    // A failed order owes nothing, whatever its last charge attempt said.
    assert.isFalse(isFeeDue({ status: 'fail', feeStatus: 'failed' }))
    assert.isFalse(isFeeDue({ status: 'cancelled', feeStatus: 'requires_action' }))
  })

  test('a decline asking for authentication leaves the fee waiting for the customer', ({
    assert,
  }) => {
    assert.equal(feeStatusAfterDecline('authentication_required'), 'requires_action')
    assert.equal(feeStatusAfterDecline('insufficient_funds'), 'failed')
    assert.equal(feeStatusAfterDecline('card_declined'), 'failed')
  })
})
