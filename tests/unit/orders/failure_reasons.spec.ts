import { test } from '@japa/runner'
import { customerReason, failureCode } from '#orders/services/failure_reasons'

test.group('Failure reasons: customers read their own words', () => {
  test('the engine code wins when valid; otherwise the words decide', ({ assert }) => {
    assert.equal(failureCode('SOLD-OUT', 'whatever'), 'sold_out')
    assert.equal(failureCode('nonsense', 'Out of stock at checkout'), 'sold_out')
    assert.equal(failureCode(null, 'Size unavailable.'), 'sold_out')
    assert.equal(failureCode(null, 'Shipping address rejected by retailer'), 'address')
    assert.equal(failureCode(null, 'Card declined (do_not_honor)'), 'declined')
    assert.equal(failureCode(null, 'Retailer queue timed out.'), 'other')
    assert.equal(failureCode(undefined, null), 'other')
  })

  test('the customer sentence never carries the engine text', ({ assert }) => {
    for (const code of ['sold_out', 'declined', 'address', 'other', null, 'bogus']) {
      const sentence = customerReason(code)
      assert.match(sentence, /^the (release|retailer)/)
    }
    assert.equal(customerReason('bogus'), customerReason('other'))
  })
})
