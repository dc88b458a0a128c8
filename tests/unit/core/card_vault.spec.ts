import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import { CardVault } from '#core/services/card_vault'
import { TransportEnvelope } from '#core/services/transport_envelope'
import { isAcceptedCardNumber } from '#core/helpers/cards'

test.group('Card vault', () => {
  test('seals with the first key and opens values sealed with an older key', ({ assert }) => {
    const oldKey = { id: 'old', key: randomBytes(32) }
    const newKey = { id: 'new', key: randomBytes(32) }
    const sealedBefore = new CardVault([oldKey]).seal({ number: '4242424242424242' })
    const rotated = new CardVault([newKey, oldKey])
    assert.deepEqual(rotated.open(sealedBefore), { number: '4242424242424242' })
    assert.isTrue(rotated.needsRotation(sealedBefore))
    const sealedNow = rotated.seal({ number: '4242424242424242' })
    assert.match(sealedNow, /^new:/)
    assert.notInclude(sealedNow, '4242424242424242')
  })

  test('a tampered value does not open', ({ assert }) => {
    const vault = new CardVault([{ id: 'k', key: randomBytes(32) }])
    const sealed = vault.seal({ number: '4242424242424242' })
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    assert.throws(() => vault.open(tampered))
  })

  test('the transport envelope round-trips and refuses garbage', ({ assert }) => {
    const envelope = new TransportEnvelope(randomBytes(32))
    const sealed = envelope.seal({ hello: 'world' })
    assert.match(sealed, /^[0-9a-f]{32}:[0-9a-f]+$/)
    assert.deepEqual(envelope.open(sealed, 'eProfile'), { hello: 'world' })
    assert.throws(() => envelope.open('zz:zz', 'eProfile'))
    assert.throws(() => new TransportEnvelope(randomBytes(32)).open(sealed, 'eProfile'))
  })

  test('card numbers: Luhn and the rejected prefixes', ({ assert }) => {
    assert.isTrue(isAcceptedCardNumber('4242 4242 4242 4242'))
    assert.isFalse(isAcceptedCardNumber('4242 4242 4242 4241'))
    assert.isFalse(isAcceptedCardNumber('4767000000000004'))
    assert.isFalse(isAcceptedCardNumber('4859000000000000'))
  })
})
