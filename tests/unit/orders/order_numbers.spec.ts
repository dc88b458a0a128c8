import { test } from '@japa/runner'
import { createHmac } from 'node:crypto'
import paymentsConfig from '#config/payments'
import {
  orderIdOfNumber,
  orderNumber,
  orderReferenceMatcher,
  parseOrderReference,
} from '#orders/services/order_numbers'

/** The numbers as they were first defined (keys as text), so a number never changes. */
function referenceNumber(orderId: number) {
  const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest()
  const keys = [0, 1, 2, 3].map((round) =>
    hmac(`dropslot:order-number:${paymentsConfig.installationId}`, String(round)).readUInt32BE(0)
  )
  let left = Math.floor(orderId / 2 ** 15)
  let right = orderId & (2 ** 15 - 1)
  for (const key of keys) {
    ;[left, right] = [
      right,
      left ^ (hmac(String(key), String(right)).readUInt16BE(0) & (2 ** 15 - 1)),
    ]
  }
  let value = left * 2 ** 15 + right
  let text = ''
  for (let index = 0; index < 6; index++) {
    text = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[value % 32] + text
    value = Math.floor(value / 32)
  }
  return `DS-${text}`
}

test.group('Order confirmation numbers', () => {
  test('short, readable, unique for every id and reversible', ({ assert }) => {
    const seen = new Set<string>()
    for (let id = 1; id <= 20_000; id++) {
      const number = orderNumber(id)
      assert.match(number, /^DS-[0-9A-HJKMNP-TV-Z]{6}$/)
      assert.isFalse(seen.has(number), `${number} given twice`)
      seen.add(number)
      assert.equal(orderIdOfNumber(number), id)
    }
    assert.equal(orderIdOfNumber(orderNumber(1_000_000_007).toLowerCase()), 1_000_000_007)
  })

  test('every number is the one the first definition gives', ({ assert }) => {
    for (const id of [1, 2, 3, 42, 999, 32_767, 32_768, 65_536, 1_000_000, 1_073_741_823]) {
      assert.equal(orderNumber(id), referenceNumber(id), `order ${id}`)
    }
  })

  test('consecutive orders do not get consecutive numbers', ({ assert }) => {
    const numbers = [1, 2, 3, 4].map(orderNumber)
    assert.notEqual(numbers[0].slice(0, 7), numbers[1].slice(0, 7))
    assert.isNull(orderIdOfNumber('DS-ILOU00'))
    assert.isNull(orderIdOfNumber('not a number'))
  })

  test('a number asked for again, recently or long after, is the same', ({ assert }) => {
    const first = [7, 8, 9].map(orderNumber)
    assert.deepEqual([7, 8, 9].map(orderNumber), first)
    for (let id = 100; id < 1_000; id++) orderNumber(id)
    assert.deepEqual([7, 8, 9].map(orderNumber), first)
    assert.deepEqual(
      first.map((number) => orderIdOfNumber(number)),
      [7, 8, 9]
    )
  })

  test('ids past the six-character domain read back from their eight characters', ({ assert }) => {
    for (const id of [2 ** 30, 2 ** 30 + 12_345, 2 ** 40 - 1]) {
      assert.match(orderNumber(id), /^DS-[0-9A-HJKMNP-TV-Z]{8}$/)
      assert.equal(orderIdOfNumber(orderNumber(id)), id)
    }
    // Eight characters below the domain were never given: no order has them.
    assert.isNull(orderIdOfNumber('DS-00000001'))
    assert.isNull(orderIdOfNumber('DS-1234567'))
  })

  test('an order is named by its public id or its number; a URL needs the DS-', ({ assert }) => {
    const uuid = '6f1c1d1e-0000-4000-8000-00000000000a'
    const number = orderNumber(4242)
    assert.deepEqual(parseOrderReference(` ${uuid.toUpperCase()} `), {
      publicId: uuid,
      label: uuid,
    })
    for (const spelling of [
      number,
      number.toLowerCase(),
      number.slice(3),
      `ds${number.slice(3)}`,
    ]) {
      assert.deepEqual(parseOrderReference(spelling), { id: 4242, label: number }, spelling)
    }
    for (const bad of ['', 'DS-', 'DS-ILOUXX', `${uuid}0`, 'x'.repeat(100), 42, null]) {
      assert.isNull(parseOrderReference(bad), String(bad))
    }
    const { match } = orderReferenceMatcher
    for (const good of [uuid, uuid.toUpperCase(), number, number.toLowerCase()]) {
      assert.isTrue(match.test(good), good)
    }
    for (const bad of [number.slice(3), 'create', 'DS-12345', `DS-${'7'.repeat(9)}`, `${uuid}/`]) {
      assert.isFalse(match.test(bad), bad)
    }
  })
})
