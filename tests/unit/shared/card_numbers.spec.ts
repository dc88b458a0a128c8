import { test } from '@japa/runner'
import { isAcceptedCardNumber } from '#shared/cards'
import { isUsableCard } from '#core/helpers/cards'

/*
| A card number is accepted only at a length its brand issues. A field that cut a typed number
| short could otherwise save another number that happens to pass Luhn: `5555 5555 5555 4444`
| cut to 13 digits is `5555555555554`, which does.
*/
test.group('Card numbers: Luhn and the brand’s length', () => {
  test('numbers cut short are refused even when they pass Luhn', ({ assert }) => {
    for (const cut of ['5555555555554', '4242424242424', '37828224631000']) {
      assert.isFalse(isAcceptedCardNumber(cut), cut)
    }
  })

  test('whole numbers of 15, 16 and 19 digits are accepted, spaced or not', ({ assert }) => {
    for (const number of [
      '378282246310005',
      '3782 822463 10005',
      '5555555555554444',
      '5555-5555-5555-4444',
      '4242 4242 4242 4242',
      '4000 0000 0000 0000 006',
      '6011000000000000001',
    ]) {
      assert.isTrue(isAcceptedCardNumber(number), number)
    }
  })

  test('the server’s card check refuses a cut number', ({ assert }) => {
    assert.isFalse(isUsableCard('5555555555554', '12', '2099'))
    assert.isTrue(isUsableCard('5555555555554444', '12', '2099'))
  })
})
