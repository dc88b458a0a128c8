import { test } from '@japa/runner'
import {
  CARD_WORDS,
  cardName,
  checkAfterFailure,
  confirmWords,
  drawCardTakenWords,
  notSecuredWords,
  orderStatusLabel,
} from '#shared/vocabulary'

/*
| The words the storefront, the e-mails and the console share (shared/vocabulary.ts): which card
| pays what, how long the $1.00 check is held, and a failed order that was never charged.
*/
test.group('Customer words: which card pays', () => {
  test('the $1.00 check and the fee go on the card on file, the item on the profile card', ({
    assert,
  }) => {
    const card = { brand: 'visa', last4: '4242' }
    assert.equal(cardName(card), 'Visa •••• 4242')
    assert.equal(cardName({ brand: 'unknown', last4: '0005' }), 'Card •••• 0005')
    assert.isNull(cardName({ brand: 'visa', last4: null }))
    assert.equal(
      confirmWords({ draw: false, fee: '$45', card }),
      'Confirm to secure the slot. We place a $1.00 check on your card on file (Visa •••• 4242) now; the $45 fee is charged to it only if the order succeeds.'
    )
    assert.equal(
      confirmWords({ draw: true, fee: '$30', card: null }),
      'Confirm to enter the draw. We place a $1.00 check on your card on file now; the $30 fee is charged to it only if you win and the order succeeds.'
    )
    for (const words of [CARD_WORDS.saving, CARD_WORDS.onFile, CARD_WORDS.fee]) {
      assert.include(words, 'card on file')
      assert.notInclude(words, "profile's card")
    }
    assert.include(CARD_WORDS.profile, 'retailer')
    // Saving the card is free, but the card is what the fee is charged to: no "never charged".
    assert.include(CARD_WORDS.saving, 'charges nothing')
    assert.include(CARD_WORDS.saving, 'service fee is charged to it')
  })

  test('the $1.00 check is said once, with its renewal: never "within a week"', ({ assert }) => {
    assert.include(CARD_WORDS.check, 'never charged')
    assert.include(CARD_WORDS.check, 'renew')
    assert.notInclude(CARD_WORDS.check, 'within a week')
    assert.equal(CARD_WORDS.checkShort, '$1.00 card check, never charged')
  })

  test("a draw's card refusal names the card on file and how to enter with another", ({
    assert,
  }) => {
    const words = drawCardTakenWords({ brand: 'mastercard', last4: '4444' })
    assert.equal(
      words,
      'Your card on file (Mastercard •••• 4444) is already entered in this draw: one entry per card. To enter with another card, change the card on file in your account.'
    )
    assert.notInclude(words.toLowerCase(), 'profile')
    assert.include(drawCardTakenWords(null), 'Your card on file is already entered')
  })
})

test.group('Customer words: a failed order', () => {
  test('never charged: Not secured, with what happened and that nothing was charged', ({
    assert,
  }) => {
    assert.equal(
      notSecuredWords('sold_out'),
      'Not secured: sold out. Nothing charged; your $1.00 check was released.'
    )
    assert.equal(
      notSecuredWords('declined', { whose: 'the' }),
      'Not secured: the retailer declined the payment. Nothing charged; the $1.00 check was released.'
    )
    assert.equal(
      notSecuredWords('address', { check: 'releasing' }),
      'Not secured: the retailer refused the shipping address. Nothing charged; your $1.00 check is being released.'
    )
    assert.equal(
      notSecuredWords(null, { check: 'none' }),
      'Not secured: the retailer did not complete the checkout. Nothing charged.'
    )
    assert.equal(notSecuredWords('an engine code nobody knows'), notSecuredWords('other'))
    assert.equal(checkAfterFailure('released'), 'released')
    assert.equal(checkAfterFailure('placed'), 'releasing')
    for (const status of ['skipped', 'declined', 'queued', null]) {
      assert.equal(checkAfterFailure(status), 'none', String(status))
    }
  })

  test('its label is Not secured; Refunded only once a charged fee was given back', ({
    assert,
  }) => {
    assert.equal(orderStatusLabel('fail'), 'Not secured')
    assert.equal(orderStatusLabel('FAIL', { status: 'none', refundedCents: 0 }), 'Not secured')
    assert.equal(orderStatusLabel('fail', { status: 'refunded', refundedCents: 2500 }), 'Refunded')
    assert.equal(orderStatusLabel('fail', { status: 'paid', refundedCents: 500 }), 'Refunded')
    assert.equal(
      orderStatusLabel('success', { status: 'refunded', refundedCents: 2500 }),
      'Success'
    )
    assert.equal(orderStatusLabel('Pending'), 'Pending')
  })
})
