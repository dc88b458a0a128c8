import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import { releaseRunner } from '#release/services/release_runner'
import { orderNumber } from '#orders/services/order_numbers'
import { removeCommittedReleaseData, sandboxSnapshot } from '#tests/support/release'
import { plannedRelease } from '#tests/support/report'
import { runCommand } from '#tests/support/cli'

test.group('CLI: dropslot release:report', (group) => {
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    await removeCommittedReleaseData('clirep-')
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await removeCommittedReleaseData('clirep-')
    await restoreSandbox()
  })

  test('prints the report, its checks and the reconciliation; exits 1 on a difference', async ({
    assert,
  }) => {
    const { product, orders, engine } = await plannedRelease(
      [
        { size: '9', result: 'success' },
        { size: '9', result: 'sold_out' },
        { size: '10', result: 'success' },
      ],
      { tags: 'adidas' },
      { emailPrefix: 'clirep-' }
    )
    const run = await releaseRunner.run({ productId: product.id, engine })
    assert.equal(run.status, 'finished')

    const text = await runCommand(['release:report', '--product', String(product.id)])
    assert.equal(text.code, 0, text.stderr)
    assert.include(text.stdout, `#${product.id} ${product.title} (adidas)`)
    assert.include(text.stdout, 'Settled: every order has its result')
    assert.include(text.stdout, 'orders 3, submitted 3, succeeded 2 (66.7 %)')
    assert.include(text.stdout, 'Failed 1: sold out 1, declined at the retailer 0')
    assert.include(text.stdout, 'Fees charged $50.00, refunded $0.00, kept $50.00, due $0.00')
    assert.include(text.stdout, 'Check ok     succeeded ≤ submitted ≤ orders: 2 ≤ 3 ≤ 3')
    assert.include(text.stdout, '2 matched, 0 difference(s)')

    const json = await runCommand(['--json', 'release:report', '--product', String(product.id)])
    assert.equal(json.code, 0, json.stderr)
    assert.containsSubset(json.json.report, {
      orders: 3,
      submitted: 3,
      succeeded: 2,
      fees: { chargedCents: 5000, refundedCents: 0, netCents: 5000, dueCents: 0 },
      reconciliation: { balanced: true, matched: 2 },
    })

    // The sandbox captured a fee for a dollar less than the ledger says.
    const won = await Order.findOrFail(orders[2].id)
    await db.from('sandbox_payment_intents').where('id', won.feePaymentId!).update({ amount: 2400 })
    const different = await runCommand([
      '--json',
      'release:report',
      '--product',
      String(product.id),
    ])
    assert.equal(different.code, 1)
    assert.isFalse(different.json.success)
    assert.include(different.json.error, '1 difference(s) between the ledger and the gateway')
    assert.containsSubset(different.json.report.reconciliation.differences, [
      {
        kind: 'amount_differs',
        money: 'charge',
        orderNumber: orderNumber(won.id),
        ledgerCents: 2500,
        gatewayCents: 2400,
      },
    ])

    const missing = await runCommand(['release:report', '--product', '999999999'])
    assert.equal(missing.code, 1)
    assert.include(missing.stderr, 'Product 999999999 not found.')
    const usage = await runCommand(['release:report'])
    assert.equal(usage.code, 2)
  }).timeout(120_000)
})
