import { test } from '@japa/runner'
import { orderIdOfNumber, orderNumber } from '#orders/services/order_numbers'

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
})
