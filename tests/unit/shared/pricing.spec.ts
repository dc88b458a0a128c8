import { test } from '@japa/runner'
import fc from 'fast-check'
import { centsOfDollars, formatCents, formatPrice, priceAfterPromo } from '#shared/pricing'

/*
| The one promo rule (shared/pricing.ts) over every price from $0.01 to $5,000 and every percent
| from 0 to 100. The server charges `priceAfterPromo(basePriceCents, percent)`; the storefront
| shows `formatPrice(priceAfterPromo(priceCents ?? centsOfDollars(price), percent))`; the e-mails
| print `formatCents(order.priceCents)`. So they agree for every pair when (1) the rule is right
| for every pair, (2) the storefront's way back from the API's dollars gives the server's cents
| for every price, and (3) both renderings read back as the cents they were given, for every
| amount the rule can produce.
*/
const MAX_CENTS = 500_000

/** The exact value with decimal strings: p * (100 - q) / 100, rounded half up. */
function reference(priceCents: number, percent: number) {
  const hundredths = BigInt(priceCents) * BigInt(100 - percent)
  const whole = hundredths / 100n
  return Number(hundredths % 100n >= 50n ? whole + 1n : whole)
}

/** Cents back from `$1,234.56` or `$50`, as a reader of the page or the e-mail would. */
function readCents(text: string) {
  const match = /^\$([\d,]+)(?:\.(\d{2}))?$/.exec(text)
  if (!match) throw new Error(`Not an amount: ${text}`)
  return Number(match[1].replace(/,/g, '')) * 100 + Number(match[2] ?? '0')
}

test.group('One promo price for server, storefront and e-mail', () => {
  test('the cases a person checks by hand', ({ assert }) => {
    // The example: the server charged $8.06 while the storefront showed $8.05.
    assert.equal(priceAfterPromo(895, 10), 806)
    assert.equal(formatPrice(priceAfterPromo(895, 10)), '$8.06')
    assert.equal(formatCents(priceAfterPromo(895, 10)), '$8.06')
    assert.equal(priceAfterPromo(5, 10), 5) // 4.5 cents: half up
    assert.equal(priceAfterPromo(1, 50), 1) // 0.5 cents: half up
    assert.equal(priceAfterPromo(1, 51), 0) // 0.49 cents
    assert.equal(priceAfterPromo(MAX_CENTS, 100), 0)
    assert.equal(priceAfterPromo(4990, 0), 4990)
    assert.equal(priceAfterPromo(4990, null), 4990)
    assert.equal(formatCents(499_000), '$4,990.00')
    assert.equal(formatPrice(5000), '$50')
    assert.equal(formatPrice(5050), '$50.50')
    for (const [price, percent] of [
      [-1, 10],
      [1.5, 10],
      [100, -1],
      [100, 101],
      [100, 12.5],
    ]) {
      assert.throws(() => priceAfterPromo(price, percent), RangeError)
    }
  })

  test('every price from $0.01 to $5,000 at every percent from 0 to 100 is the exact cent, half up', ({
    assert,
  }) => {
    let checked = 0
    for (let percent = 0; percent <= 100; percent++) {
      // Integer form of the reference (BigInt for all 50 million pairs is slow): the same
      // rational, rounded half up, computed without the function under test's trick.
      const keep = 100 - percent
      for (let price = 1; price <= MAX_CENTS; price++) {
        const hundredths = price * keep
        const whole = Math.floor(hundredths / 100)
        const expected = hundredths - whole * 100 >= 50 ? whole + 1 : whole
        if (priceAfterPromo(price, percent) !== expected) {
          assert.fail(`$${price / 100} at ${percent} %: ${priceAfterPromo(price, percent)}`)
        }
        checked++
      }
    }
    assert.equal(checked, MAX_CENTS * 101)
    // And the integer reference itself against decimal arithmetic, on a sample of the pairs.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_CENTS }),
        fc.integer({ min: 0, max: 100 }),
        (price, percent) => priceAfterPromo(price, percent) === reference(price, percent)
      ),
      { numRuns: 20_000, seed: 27 }
    )
  }).timeout(120_000)

  test('the storefront reads every price from the API’s dollars as the server’s cents', ({
    assert,
  }) => {
    for (let price = 1; price <= MAX_CENTS; price++) {
      // The product API's `price` is `priceCents / 100`, as the server writes it.
      if (centsOfDollars(price / 100) !== price) assert.fail(`$${price / 100}`)
    }
  }).timeout(60_000)

  test('the page and the e-mail show every amount the rule can give as exactly its cents', ({
    assert,
  }) => {
    for (let cents = 0; cents <= MAX_CENTS; cents++) {
      if (readCents(formatPrice(cents)) !== cents) assert.fail(`page: ${formatPrice(cents)}`)
      if (readCents(formatCents(cents)) !== cents) assert.fail(`e-mail: ${formatCents(cents)}`)
    }
  }).timeout(60_000)

  test('property: for any price and percent the three surfaces agree', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_CENTS }),
        fc.integer({ min: 0, max: 100 }),
        (price, percent) => {
          const charged = priceAfterPromo(price, percent)
          const shown = readCents(
            formatPrice(priceAfterPromo(centsOfDollars(price / 100), percent))
          )
          const mailed = readCents(formatCents(charged))
          return shown === charged && mailed === charged
        }
      ),
      { numRuns: 50_000, seed: 2027 }
    )
  })
})
