import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#accounts/models/user'
import { STAFF_TOKEN_NAME } from '#accounts/services/access_tokens_provider'
import { secondFactor } from '#accounts/services/second_factor'
import AuditLog from '#core/models/audit_log'
import Order from '#orders/models/order'
import { UserFactory } from '#database/factories/user_factory'
import { orderSettlement } from '#payments/services/order_settlement'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { moneyLockTaken, slowGateway } from '#tests/support/slow_gateway'
import { runCli } from '#tests/support/cli'

const PREFIX = 'climoney-'

/** An owner the CLI can act as (`--as`), with a console token past its second factor. */
async function admin() {
  const user = await UserFactory.apply('admin')
    .merge({ email: `${PREFIX}admin-${Date.now().toString(36)}@example.test` })
    .create()
  const token = await User.accessTokens.create(user, ['*'], { name: STAFF_TOKEN_NAME })
  await secondFactor.completeToken(String(token.identifier))
  return { user, token: token.value!.release() }
}

/** A successful order whose fee was charged, committed (the CLI runs in its own process). */
async function paidOrder(priceCents: number) {
  const { orders } = await releasedProductWithOrders(1, { emailPrefix: PREFIX, priceCents })
  await orderSettlement.succeed(orders[0].id, { confirmationNumber: 'CLI-LOCK-1' })
  return Order.findOrFail(orders[0].id)
}

/** One refund, one e-mail, one audit entry and one timeline line: the record and the money. */
async function assertOneRefund(assert: any, order: Order, cents: number) {
  await order.refresh()
  assert.equal(order.feeStatus, 'refunded')
  assert.equal(order.refundedCents, cents)
  const rows = await db.from('payment_ledger').where('order_id', order.id).where('kind', 'refund')
  assert.lengthOf(rows, 1)
  assert.include(rows[0], { status: 'succeeded', amount_cents: cents })
  const atGateway = await db.from('sandbox_refunds').where('payment_intent_id', order.feePaymentId!)
  assert.lengthOf(atGateway, 1)
  assert.equal(atGateway[0].amount, cents)
  const mails = await db
    .from('email_messages')
    .where('order_id', order.id)
    .where('template', 'fee_refunded')
  assert.lengthOf(mails, 1)
  const audits = await AuditLog.query()
    .where('subject_id', order.publicId)
    .where('action', 'order.fee_refund')
  assert.lengthOf(audits, 1)
  const lines = await db
    .from('order_events')
    .where('order_id', order.id)
    .where('kind', 'fee_refund')
  assert.lengthOf(lines, 1)
  return audits[0]
}

test.group('CLI and console: one money action per order, across processes', (group) => {
  let restoreSandbox: () => Promise<void>
  let restoreGateway: (() => unknown) | null = null
  group.each.setup(async () => {
    await removeCommittedReleaseData(PREFIX)
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    restoreGateway?.()
    restoreGateway = null
    await removeCommittedReleaseData(PREFIX)
    await restoreSandbox()
  })

  test('a refund from the CLI and one from the console at once: one refund, one 409, one e-mail', async ({
    client,
    assert,
  }) => {
    const { user, token } = await admin()
    const order = await paidOrder(2400)

    // The CLI's provider is slow: its refund is in flight while the console's arrives.
    const fromCli = runCli(
      ['--json', '--as', user.email, 'orders:refund', order.publicId, '--reason', 'Goodwill'],
      { SANDBOX_LATENCY_MS: '4000' }
    )
    assert.isTrue(await moneyLockTaken(order.id), 'the CLI never took the order')
    const fromConsole = await client
      .post(`/api/admin/orders/${order.publicId}/refund`)
      .bearerToken(token)
      .json({ reason: 'Goodwill from the console' })
    fromConsole.assertStatus(409)
    assert.equal(fromConsole.body().code, 'order_busy')

    const cli = await fromCli
    assert.equal(cli.code, 0, cli.stderr)
    assert.containsSubset(cli.json, {
      success: true,
      order: { feeStatus: 'refunded', refundedCents: 2400 },
    })
    const audit = await assertOneRefund(assert, order, 2400)
    assert.equal(audit.actorUserId, user.id)
    assert.equal(audit.meta?.via, 'cli')
  }).timeout(120_000)

  test('while the console refunds, the CLI answers order_busy and changes nothing', async ({
    client,
    assert,
  }) => {
    const { user, token } = await admin()
    const order = await paidOrder(1900)
    const slow = slowGateway('refund')
    restoreGateway = slow.restore

    const fromConsole = Promise.resolve(
      client
        .post(`/api/admin/orders/${order.publicId}/refund`)
        .bearerToken(token)
        .json({ reason: 'Goodwill from the console' })
    )
    await slow.inFlight
    const cli = await runCli([
      '--json',
      '--as',
      user.email,
      'orders:refund',
      order.publicId,
      '--amount',
      '5',
      '--reason',
      'Goodwill',
    ])
    assert.equal(cli.code, 1)
    assert.containsSubset(cli.json, { success: false, code: 'order_busy' })
    slow.answer()
    const answered = await fromConsole
    answered.assertStatus(200)
    const audit = await assertOneRefund(assert, order, 1900)
    assert.equal(audit.meta?.via, 'console')
  }).timeout(120_000)
})
