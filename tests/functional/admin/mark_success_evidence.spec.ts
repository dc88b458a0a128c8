import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import env from '#start/env'
import AuditLog from '#core/models/audit_log'
import Order from '#orders/models/order'
import Product from '#catalog/models/product'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { adminWithToken, pendingOrder, placeHolds } from '#tests/helpers'
import { useMailIntake } from '#tests/support/mail'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { runCommand } from '#tests/support/cli'

/** A pending order of a product whose release has dropped, its $1.00 check placed. */
async function releasedOrder(priceCents = 3500) {
  const { order, product } = await pendingOrder({ product: { priceCents } })
  await placeHolds()
  await Product.query()
    .where('id', product.id)
    .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
  return order
}

const feesOf = (order: Order) =>
  PaymentLedgerEntry.query().where('order_id', order.id).where('kind', 'fee')

const markAudit = (order: Order) =>
  AuditLog.query()
    .where('subject_type', 'order')
    .where('subject_id', order.publicId)
    .where('action', 'order.mark_success')

test.group('Admin orders: Mark success needs evidence', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('no confirmation number and no reason: 422, nothing charged or changed; a number charges the fee once', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const order = await releasedOrder()

    for (const body of [
      { status: 'success' },
      { status: 'success', confirmationNumber: '', reason: '' },
      { status: 'success', confirmationNumber: '   ', reason: null },
    ]) {
      const refused = await client
        .post(`/api/admin/orders/${order.publicId}/mark`)
        .bearerToken(token)
        .json(body)
      refused.assertStatus(422)
      assert.containsSubset(refused.body(), {
        success: false,
        code: 'confirmation_required',
        error:
          "Marking an order successful charges its fee: give the retailer's confirmation number, " +
          'or a reason when there is none.',
      })
      assert.property(refused.body().errors, 'confirmationNumber')
    }
    await order.refresh()
    assert.equal(order.status, 'pending')
    assert.equal(order.feeStatus, 'none')
    assert.lengthOf(await feesOf(order), 0)
    assert.lengthOf(await markAudit(order), 0)

    const marked = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'success', confirmationNumber: 'NK-3500' })
    marked.assertStatus(200)
    assert.containsSubset(marked.body(), {
      status: 'success',
      feeStatus: 'paid',
      confirmationNumber: 'NK-3500',
    })
    const fees = await feesOf(order)
    assert.deepEqual(
      fees.map((fee) => [fee.amountCents, fee.status]),
      [[3500, 'succeeded']]
    )
  })

  test('a written reason without a number: success, and the reason is in the audit log', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const order = await releasedOrder()
    const reason = 'Retailer support confirmed the order by phone; no number given'
    const marked = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'success', reason })
    marked.assertStatus(200)
    assert.equal(marked.body().status, 'success')
    assert.lengthOf(await feesOf(order), 1)
    const [audit] = await markAudit(order)
    assert.equal(audit.reason, reason)
  })

  test('an order the mark is refused for anyway keeps its 409', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const { order } = await pendingOrder()
    await placeHolds()
    const response = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json({ status: 'success' })
    response.assertStatus(409)
    assert.equal(response.body().code, 'product_not_released')
  })

  test('the admin order says whether the mail intake is on and what e-mail arrived', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const order = await releasedOrder()
    const off = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    off.assertStatus(200)
    assert.deepEqual(off.body().mailEvidence, { intakeOn: false, messages: 0, signed: 0 })
    await useMailIntake()
    try {
      const on = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
      assert.deepEqual(on.body().mailEvidence, { intakeOn: true, messages: 0, signed: 0 })
    } finally {
      env.set('MAIL_INTAKE_DOMAIN', '')
    }
  })
})

test.group('CLI: orders:mark success needs evidence', (group) => {
  // The CLI is another process: its data is committed, and removed afterwards.
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    await removeCommittedReleaseData('climark-')
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await removeCommittedReleaseData('climark-')
    await restoreSandbox()
  })

  test('orders:mark success with neither --confirmation nor --reason exits 1 and charges nothing', async ({
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1, { emailPrefix: 'climark-' })
    const refused = await runCommand(['orders:mark', orders[0].publicId, 'success'])
    assert.equal(refused.code, 1)
    assert.include(refused.stderr, "give the retailer's confirmation number, or a reason")
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'pending')
    assert.lengthOf(await feesOf(order), 0)

    const marked = await runCommand([
      '--json',
      'orders:mark',
      orders[0].publicId,
      'success',
      '--reason',
      'Confirmed in the retailer account, no number shown',
    ])
    assert.equal(marked.code, 0, marked.stderr)
    assert.containsSubset(marked.json, { success: true, status: 'success', feeStatus: 'paid' })
    const [audit] = await markAudit(order)
    assert.equal(audit.reason, 'Confirmed in the retailer account, no number shown')
  }).timeout(120_000)
})
