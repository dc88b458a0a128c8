import { test } from '@japa/runner'
import { formatPhone, isValidPhone, phoneForServer } from '#shared/phone'

/*
| Phones formatted by libphonenumber (shared/phone.ts), as the storefront's sign-up, account and
| profile forms and the console show and take them.
*/
test.group('Phone numbers', () => {
  test('an international number reads as typed, not cut into groups of digits', ({ assert }) => {
    assert.equal(formatPhone('+1 212 555 0147'), '+1 212 555 0147')
    assert.equal(formatPhone('+12125550147'), '+1 212 555 0147')
    assert.notEqual(formatPhone('+1 212 555 0147'), '121-255-5014-7')
    assert.equal(formatPhone('+44 20 7946 0958'), '+44 20 7946 0958')
    assert.equal(phoneForServer('+1 212 555 0147'), '+12125550147')
    // What is kept shows again as it was typed.
    assert.equal(formatPhone(phoneForServer('+1 212 555 0147')), '+1 212 555 0147')
  })

  test('a national number takes dashes between its groups as it is typed', ({ assert }) => {
    assert.equal(formatPhone('6465550123'), '646-555-0123')
    assert.equal(formatPhone('646-555-0123'), '646-555-0123')
    assert.equal(formatPhone('6465'), '646-5')
    assert.equal(formatPhone(''), '')
    assert.equal(formatPhone('+'), '+')
    assert.equal(phoneForServer('646-555-0123'), '6465550123')
  })

  test('at most 15 digits; valid from 7', ({ assert }) => {
    assert.equal(phoneForServer('+1234567890123456789'), '+123456789012345')
    assert.isTrue(isValidPhone('+1 212 555 0147'))
    assert.isTrue(isValidPhone('555-1234'))
    assert.isFalse(isValidPhone('555-12'))
  })
})
