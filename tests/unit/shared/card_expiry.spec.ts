import { test } from '@japa/runner'
import { isCardExpired, parseCardExpiry } from '#shared/cards'
import { isUsableCard } from '#core/helpers/cards'

/*
| One expiry rule for the server and the storefront (`#shared/cards`): a card is valid through
| the last day of its expiry month in UTC. The storefront's form calls `parseCardExpiry` (its
| `parseExpiry` is that with the browser's time), the server's validators `isUsableCard` on the
| product's clock; both read the month in UTC, so the customer's time zone changes nothing.
*/
const CARD = '4242424242424242'
const at = (iso: string) => new Date(iso)

/** Runs `check` with the process in another time zone (as a browser in New York or Tokyo). */
function inZone<T>(zone: string, check: () => T): T {
  const previous = process.env.TZ
  process.env.TZ = zone
  try {
    return check()
  } finally {
    if (previous === undefined) delete process.env.TZ
    else process.env.TZ = previous
  }
}

test.group('Card expiry: valid through the last day of its month, in UTC', () => {
  test('the last instant of the month in UTC is still valid; the next one is not', ({ assert }) => {
    assert.isFalse(isCardExpired(12, 2030, at('2030-12-31T23:59:59.999Z')))
    assert.isTrue(isCardExpired(12, 2030, at('2031-01-01T00:00:00.000Z')))
    assert.isFalse(isCardExpired(2, 2032, at('2032-02-29T12:00:00Z')))
    assert.isTrue(isCardExpired(2, 2032, at('2032-03-01T00:00:00Z')))
    assert.isTrue(isCardExpired(1, 2031, at('2032-01-15T00:00:00Z')))
    assert.isFalse(isCardExpired(1, 2032, at('2031-12-15T00:00:00Z')))
  })

  test('the storefront’s form and the server answer the same, whatever the time zone', ({
    assert,
  }) => {
    const instants = [
      // 19:00 on Dec 31 in New York: already January in UTC.
      ['2031-01-01T00:30:00Z', true],
      // 09:00 on Jan 1 in Tokyo: still December in UTC.
      ['2030-12-31T23:30:00Z', false],
    ] as const
    for (const zone of ['America/New_York', 'Asia/Tokyo', 'UTC', 'Pacific/Kiritimati']) {
      for (const [iso, expired] of instants) {
        inZone(zone, () => {
          const now = at(iso)
          const browser = parseCardExpiry('12/30', now.getTime())
          const server = isUsableCard(CARD, '12', '30', now)
          assert.equal(browser === null, expired, `${zone} ${iso}: storefront`)
          assert.equal(!server, expired, `${zone} ${iso}: server`)
        })
      }
    }
  })

  test('the form’s reading of MM/YY: months, two- and four-digit years', ({ assert }) => {
    const now = at('2030-06-15T12:00:00Z').getTime()
    assert.deepEqual(parseCardExpiry('6/30', now), { month: '06', year: '2030' })
    assert.deepEqual(parseCardExpiry('07/2031', now), { month: '07', year: '2031' })
    assert.isNull(parseCardExpiry('05/30', now))
    assert.isNull(parseCardExpiry('13/31', now))
    assert.isNull(parseCardExpiry('00/31', now))
    assert.isNull(parseCardExpiry('1231', now))
    assert.isNull(parseCardExpiry('12/3', now))
  })

  test('every month of a span of years: the browser’s and the server’s answers never differ', ({
    assert,
  }) => {
    for (let year = 2029; year <= 2032; year++) {
      for (let month = 1; month <= 12; month++) {
        // The first and last minute of each UTC month, against cards of nearby months.
        const first = Date.UTC(year, month - 1, 1, 0, 0)
        const last = Date.UTC(year, month, 1, 0, 0) - 60_000
        for (const now of [first, last]) {
          for (let cardMonth = 1; cardMonth <= 12; cardMonth++) {
            const text = `${String(cardMonth).padStart(2, '0')}/${year % 100}`
            const browser = parseCardExpiry(text, now) !== null
            const server = isUsableCard(CARD, cardMonth, year, new Date(now))
            assert.equal(browser, server, `${text} at ${new Date(now).toISOString()}`)
            assert.equal(server, cardMonth >= month, `${text} at ${new Date(now).toISOString()}`)
          }
        }
      }
    }
  })
})
