import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import EmailMessage from '#notifications/models/email_message'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { releaseConfig } from '#release/services/release_config'
import { SimulatorEngine } from '#release/services/checkout_engines'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { runCli } from '#tests/support/cli'

/*
| These tests spawn the real `dropslot release:run` (committed data, no global transaction) and
| kill it with SIGKILL at chosen lines (DROPSLOT_CRASH_AFTER, honoured only under NODE_ENV=test).
*/

async function cleanUp(prefix: string) {
  await removeCommittedReleaseData(prefix)
  await db.from('locks').delete()
}

/**
 * A killed run's locks lapse after their expiry (RELEASE_LOCK_TTL_MS for the release lock): each
 * one still live is moved to expire now instead of waiting for it. The spawned runs read
 * expiries from their own system clock, so the product clock cannot move them.
 */
async function lapseLocksOfKilledRun() {
  await db
    .from('locks')
    .where('expiration', '>=', Date.now())
    .update({ expiration: Date.now() - 1 })
}

/** Every order settled exactly once: one fee at the gateway and in the ledger, one e-mail per kind. */
async function assertSettledOnce(assert: any, orders: Order[]) {
  const { successRate, seed } = releaseConfig().simulator
  for (const original of orders) {
    const order = await Order.findOrFail(original.id)
    const expected = SimulatorEngine.outcome(order.publicId, successRate, seed).status
    assert.equal(order.status, expected, `order ${order.id}`)
    assert.equal(order.holdStatus, 'released')
    const fees = await PaymentLedgerEntry.query().where('order_id', order.id).where('kind', 'fee')
    const charges = await db
      .from('sandbox_payment_intents')
      .where('metadata', 'like', `%${order.publicId}%`)
      .where('metadata', 'like', '%fee%')
      .where('status', 'succeeded')
    const emails = await EmailMessage.query().where('order_id', order.id)
    const kinds = emails.map((email) => email.template)
    if (expected === 'success') {
      assert.equal(order.feeStatus, 'paid')
      assert.deepEqual(
        fees.map((fee) => fee.status),
        ['succeeded']
      )
      assert.lengthOf(charges, 1, `order ${order.id} charged once at the gateway`)
      assert.sameMembers(kinds, ['order_received', 'order_secured'])
    } else {
      assert.equal(order.feeStatus, 'none')
      assert.lengthOf(fees, 0)
      assert.lengthOf(charges, 0)
      assert.sameMembers(kinds, ['order_received', 'order_failed'])
    }
  }
  const open = await db
    .from('release_tasks')
    .whereIn(
      'order_id',
      orders.map((order) => order.id)
    )
    .whereNot('status', 'done')
  assert.lengthOf(open, 0)
}

test.group('CLI: release:run survives SIGKILL and concurrent runs', (group) => {
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    await cleanUp('crash-')
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await cleanUp('crash-')
    await restoreSandbox()
  })

  test('killed at every step and run again: no second fee, no lost order, no duplicate e-mail', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(6, { emailPrefix: 'crash-' })
    const steps = [
      'run-started',
      'claimed',
      'submitted',
      'result-recorded',
      'order-succeeded',
      'fee-charged',
      'fee-settled',
      'settled',
      'emailed',
      'claimed',
    ]
    let killed = 0
    for (const step of steps) {
      await lapseLocksOfKilledRun()
      const result = await runCli(['--json', 'release:run', '--product', String(product.id)], {
        DROPSLOT_CRASH_AFTER: step,
      })
      if (result.code !== 0 && result.json === null) killed++
    }
    // Most steps were reached (a step can be missed when no order is left that passes it).
    assert.isAtLeast(killed, 7)

    await lapseLocksOfKilledRun()
    const final = await runCli(['--json', 'release:run', '--product', String(product.id)])
    assert.equal(final.code, 0, final.stderr)
    assert.equal(final.json.status, 'finished')
    await assertSettledOnce(assert, orders)

    const again = await runCli(['--json', 'release:run', '--product', String(product.id)])
    assert.equal(again.json.submitted, 0)
    assert.equal(again.json.resumed, 0)
    await assertSettledOnce(assert, orders)

    const status = await runCli(['--json', 'release:status', '--product', String(product.id)])
    assert.equal(status.code, 0)
    assert.equal(status.json.statuses.pending + status.json.statuses.processing, 0)
    assert.equal(status.json.holdsOpen, 0)
  }).timeout(900_000)

  test('two runs started at once never both process an order', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(4, { emailPrefix: 'crash-' })
    const args = ['--json', 'release:run', '--product', String(product.id)]
    const [first, second] = await Promise.all([runCli(args), runCli(args)])
    assert.equal(first.code, 0, first.stderr)
    assert.equal(second.code, 0, second.stderr)
    assert.equal(first.json.submitted + second.json.submitted, 4)
    await assertSettledOnce(assert, orders)
  }).timeout(300_000)
})
