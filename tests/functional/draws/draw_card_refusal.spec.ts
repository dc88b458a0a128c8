import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { distinctCard, drawProduct, enterDraw } from '#tests/support/draws'

/*
| A draw takes one entry per card, and the card it counts is the card on file (the one the $1.00
| check is made on): its refusal names that card and says how to enter with another. Another
| profile cannot help, so it does not say "Select a new profile".
*/
test.group('Draw releases: the one-entry-per-card refusal', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('names the card on file by brand and last four, and says to change it', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct({ totalStock: 10 })
    const first = await enterDraw(client, product, 0)
    first.response.assertStatus(201)

    const card = distinctCard(0)
    const second = await enterDraw(client, product, 1, { card, street: '2 Other Street' })
    second.response.assertStatus(409)
    const refusal =
      `Your card on file (Visa •••• ${card.slice(-4)}) is already entered in this draw: one ` +
      'entry per card. To enter with another card, change the card on file in your account.'
    assert.deepEqual(second.response.body(), {
      success: false,
      error: refusal,
      code: 'duplicate',
      errors: { cardOnFile: refusal },
    })
    assert.notInclude(refusal.toLowerCase(), 'profile')

    // A shipping address taken is another profile's business: that refusal still says so.
    const sameStreet = await enterDraw(client, product, 2, { street: '1 Draw Street' })
    sameStreet.response.assertStatus(409)
    assert.include(sameStreet.response.body().error, 'Select a new profile')
    assert.notProperty(sameStreet.response.body(), 'errors')
  })
})
