import { test } from '@japa/runner'
import Order from '#orders/models/order'
import { orderNumber } from '#orders/services/order_numbers'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { runCommand } from '#tests/support/cli'

const PREFIX = 'cliorder-'

test.group('CLI: orders by their DS- number', (group) => {
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    await removeCommittedReleaseData(PREFIX)
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await removeCommittedReleaseData(PREFIX)
    await restoreSandbox()
  })

  test('orders:mark takes the DS- number; orders:show prints the order, its money and timeline', async ({
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1, { emailPrefix: PREFIX, priceCents: 2500 })
    const order = orders[0]
    const number = orderNumber(order.id)

    const marked = await runCommand([
      '--json',
      'orders:mark',
      number.toLowerCase(),
      'success',
      '--confirmation',
      'NK-CLI-1',
    ])
    assert.equal(marked.code, 0, marked.stderr)
    assert.containsSubset(marked.json, {
      success: true,
      orderId: order.publicId,
      orderNumber: number,
      status: 'success',
    })
    await order.refresh()
    assert.equal(order.status, 'success')

    // Without its `DS-`, in lower case: the same order.
    const text = await runCommand(['orders:show', number.slice(3).toLowerCase()])
    assert.equal(text.code, 0, text.stderr)
    assert.include(text.stdout, `Order ${number}`)
    assert.include(text.stdout, order.publicId)
    assert.include(text.stdout, order.email)
    assert.include(text.stdout, 'status    success, confirmation NK-CLI-1')
    assert.include(text.stdout, 'fee       paid, $25.00')
    assert.match(text.stdout, /Ledger\n(.*\n)*\s+.*fee\s+succeeded\s+\$25\.00/)
    assert.match(text.stdout, /Timeline\n(.*\n)*.*placed\n(.*\n)*.*outcome · pending -> success/)

    const json = await runCommand(['orders:show', order.publicId.toUpperCase(), '--json'])
    assert.equal(json.code, 0, json.stderr)
    assert.containsSubset(json.json, {
      success: true,
      order: {
        orderNumber: number,
        id: order.publicId,
        email: order.email,
        status: 'success',
        confirmationNumber: 'NK-CLI-1',
        fee: { status: 'paid', amountCents: 2500 },
      },
    })
    assert.deepInclude(
      json.json.order.ledger.map((entry: { kind: string; status: string }) => entry.kind),
      'fee'
    )
    assert.equal(json.json.order.timeline[0].kind, 'outcome')
    assert.notInclude(json.stdout, 'sealed')
  }).timeout(120_000)

  test('an unknown or malformed order names what is taken and exits 1', async ({ assert }) => {
    const unknown = orderNumber(2 ** 30 - 1)
    assert.isNull(await Order.find(2 ** 30 - 1))
    const shown = await runCommand(['orders:show', unknown])
    assert.equal(shown.code, 1)
    assert.include(
      shown.stderr,
      `error: Order ${unknown} not found: give its DS- number (DS-7K3Q9X) or its id (UUID).`
    )
    assert.notInclude(shown.stderr, '    at ')

    const refund = await runCommand([
      '--json',
      'orders:refund',
      unknown.toLowerCase(),
      '--reason',
      'Goodwill',
    ])
    assert.equal(refund.code, 1)
    assert.containsSubset(refund.json, { success: false, code: 'order_not_found' })
    assert.include(refund.json.error, `Order ${unknown} not found`)

    const malformed = await runCommand(['orders:show', 'no-such-order'])
    assert.equal(malformed.code, 1)
    assert.include(malformed.stderr, 'Order no-such-order not found: give its DS- number')
  }).timeout(120_000)

  test('the order commands say they take a DS- number or an id', async ({ assert }) => {
    for (const command of ['orders:show', 'orders:mark', 'orders:refund', 'emails:resend']) {
      const help = await runCommand([command, '--help'])
      assert.equal(help.code, 0, help.stderr)
      assert.include(help.stdout, 'its DS- number or its id', command)
      assert.notInclude(help.stdout, 'UUID', command)
    }
  }).timeout(120_000)
})
