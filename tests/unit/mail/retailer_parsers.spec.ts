import { test } from '@japa/runner'
import { RETAILERS, MAX_TEXT_CHARS } from '#mail/services/retailers'

/*
| A retailer's parser reads text a sender controls. Each one is fed a megabyte of what makes a
| backtracking pattern spin (runs of spaces, blank lines, lines that nearly match) and must
| answer within a fixed budget: a pattern that went back to overlapping `\s*` would take minutes.
*/

const MB = 1024 * 1024
const spaces = (count: number) => ' '.repeat(count)

/** Hostile bodies of about 1 MB each. */
const HOSTILE: Record<string, string> = {
  'one line of spaces': spaces(MB),
  'blank lines': '\n \n\t\n'.repeat(MB / 4),
  'an item line that never ends': `a${spaces(5000)}×${spaces(5000)}\n`.repeat(MB / 10_002),
  'totals with no amount': `Total:${spaces(3000)}$${spaces(3000)}\n`.repeat(MB / 6008),
  'sizes that nearly match': `Size:${spaces(4000)}:${spaces(4000)}9.\n`.repeat(MB / 8009),
  'a tracking label with no number': `Tracking number${spaces(MB)}:`,
  'order words without a number': 'order order order #'.repeat(MB / 19),
  'a word that never ends': `Order #${'A'.repeat(MB)}`,
}

/** The most one parse of a hostile body may take (the old patterns took minutes). */
const BUDGET_MS = 500

test.group('Retailer parsers: linear on anything a sender writes', () => {
  for (const retailer of RETAILERS) {
    test(`${retailer.id}: every hostile body is parsed within ${BUDGET_MS} ms`, ({ assert }) => {
      for (const [name, text] of Object.entries(HOSTILE)) {
        const started = performance.now()
        const parsed = retailer.parse({ subject: text.slice(0, 10_000), text })
        const took = performance.now() - started
        assert.isBelow(took, BUDGET_MS, `${name}: ${took.toFixed(0)} ms`)
        assert.isNull(parsed.totalCents, name)
      }
    }).timeout(30_000)
  }

  test('text past the cap is not read', ({ assert }) => {
    const kith = RETAILERS.find((item) => item.id === 'kith')!
    const padding = `${'Lorem ipsum dolor sit amet.\n'.repeat(Math.ceil(MAX_TEXT_CHARS / 28))}`
    const late = kith.parse({
      subject: 'Order #KH-1 confirmed',
      text: `${padding}Total $99.00 USD\n`,
    })
    assert.equal(late.kind, 'confirmation')
    assert.isNull(late.totalCents)
    const early = kith.parse({ subject: 'Order #KH-1 confirmed', text: 'Total $99.00 USD\n' })
    assert.equal(early.totalCents, 9900)
  })

  test('the fixtures’ fields are still read: item, size, total, tracking', ({ assert }) => {
    const kith = RETAILERS.find((item) => item.id === 'kith')!
    const confirmation = kith.parse({
      subject: 'Order #KH-7 confirmed',
      text: 'Kith\nORDER #KH-7\n\nOrder summary\n  Test Runner  Black × 1\n9.5 / Black\n\nTotal $1,025.00 USD\n',
    })
    assert.deepEqual(confirmation, {
      kind: 'confirmation',
      orderNumber: 'KH-7',
      item: 'Test Runner Black',
      size: '9.5',
      totalCents: 102_500,
      trackingNumber: null,
    })
    const nike = RETAILERS.find((item) => item.id === 'nike')!
    const shipped = nike.parse({
      subject: 'Your order has shipped',
      text: 'Order Number: C0012345\nTracking Number:   1Z999AA10123456784\n',
    })
    assert.equal(shipped.kind, 'shipped')
    assert.equal(shipped.trackingNumber, '1Z999AA10123456784')
  })
})
