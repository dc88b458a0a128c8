import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import Product from '#catalog/models/product'
import { orderNumber } from '#orders/services/order_numbers'
import { releaseRunner } from '#release/services/release_runner'
import { adminOrderActions } from '#admin/services/admin_order_actions_service'
import { adminWithToken, productFor } from '#tests/helpers'
import { clock } from '#core/services/clock'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StripeGateway } from '#payments/gateways/stripe_gateway'
import { useGateway } from '#payments/services/gateway'
import { plannedRelease, type PlannedOrder } from '#tests/support/report'

const ADMIN = { actor: { label: 'ops@example.test' } }

const PLAN: PlannedOrder[] = [
  { size: '9', result: 'success' },
  { size: '9', result: 'sold_out' },
  { size: '10', result: 'success' },
  { size: '10', result: 'declined' },
  { size: '11', result: 'success' },
  { size: '11', result: 'address' },
  { size: '11', result: 'declined-hold' },
]

/** The planned release, run, then one success cancelled by the retailer and one part-refunded. */
async function settledRelease(product: Record<string, unknown> = {}) {
  const release = await plannedRelease(PLAN, { tags: 'nike', ...product })
  const report = await releaseRunner.run({ productId: release.product.id, engine: release.engine })
  if (report.status !== 'finished') throw new Error(`the run ${report.status}: ${report.error}`)
  const [first, , second, , third] = release.orders
  await adminOrderActions.correctToFail(
    third.publicId,
    { reason: 'The retailer cancelled the order after confirming it.', reasonCode: 'other' },
    ADMIN
  )
  await adminOrderActions.refundFee(
    first.publicId,
    { amountCents: 500, reason: 'Goodwill for a late delivery.' },
    ADMIN
  )
  return { ...release, succeeded: [first, second], cancelled: third }
}

test.group('Release reports: the public outcome report', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('refused while orders are open, for unreleased and unknown products: 404, nothing half-made', async ({
    client,
    assert,
  }) => {
    const upcoming = await productFor()
    const notYet = await client.get(`/api/releases/${upcoming.id}/report`)
    notYet.assertStatus(404)
    notYet.assertBodyContains({ success: false, code: 'report_not_found' })
    const unknown = await client.get('/api/releases/987654321/report')
    unknown.assertStatus(404)

    const release = await plannedRelease(PLAN.slice(0, 2))
    const open = await client.get(`/api/releases/${release.product.id}/report`)
    open.assertStatus(404)
    open.assertBodyContains({ success: false, code: 'report_not_ready' })
    assert.notProperty(open.body(), 'succeeded')
    // Half of release day done (one card check still waits for the customer): still refused.
    const [one] = release.orders
    await Order.query().where('id', release.orders[1].id).update({ hold_status: 'requires_action' })
    await releaseRunner.run({ productId: release.product.id, engine: release.engine })
    const order = await Order.findOrFail(one.id)
    assert.equal(order.status, 'success')
    const half = await client.get(`/api/releases/${release.product.id}/report`)
    half.assertStatus(404)
    const listed = await client.get('/api/releases')
    assert.notInclude(
      listed.body().releases.map((item: any) => item.productId),
      release.product.id
    )
  })

  test("a settled release's figures match its orders and the payment ledger", async ({
    client,
    assert,
  }) => {
    const { product, orders, customers } = await settledRelease()
    const response = await client.get(`/api/releases/${product.id}/report`)
    response.assertStatus(200)
    const report = response.body()

    // What the database says, counted independently of the report.
    const rows = await db.from('orders').where('product_id', product.id)
    const byStatus = (status: string) => rows.filter((row) => row.status === status).length
    const ledger = await db
      .from('payment_ledger')
      .whereIn(
        'order_id',
        rows.map((row) => row.id)
      )
      .where('status', 'succeeded')
      .select('kind')
      .sum('amount_cents as cents')
      .groupBy('kind')
    const ledgerCents = (kind: string) =>
      Number(ledger.find((row) => row.kind === kind)?.cents ?? 0)

    assert.equal(report.orders, rows.length)
    assert.equal(report.orders, 7)
    assert.equal(report.slots, product.totalStock)
    assert.equal(report.succeeded, byStatus('success'))
    assert.equal(report.succeeded, 2)
    assert.equal(report.submitted, 6)
    assert.equal(report.notSubmitted, byStatus('cancelled'))
    assert.equal(report.cancelledAfterSuccess, 1)
    assert.deepEqual(report.failed, {
      total: 3,
      soldOut: 1,
      declined: 1,
      address: 1,
      aboveCap: 0,
      other: 0,
    })
    assert.equal(
      report.failed.total + report.cancelledAfterSuccess,
      byStatus('fail'),
      'every fail is a failure or a cancelled success'
    )
    assert.equal(report.successRate, Math.round((2 / 6) * 10_000) / 10_000)
    assert.deepEqual(report.fees, {
      chargedCents: ledgerCents('fee'),
      refundedCents: ledgerCents('refund'),
      netCents: ledgerCents('fee') - ledgerCents('refund'),
      dueCents: 0,
    })
    assert.equal(report.fees.chargedCents, 3 * 2500)
    assert.equal(report.fees.refundedCents, 2500 + 500)
    const kept = rows
      .filter((row) => row.status === 'success')
      .reduce((sum, row) => sum + row.price_cents - row.refunded_cents, 0)
    assert.equal(report.fees.netCents, kept)
    assert.deepEqual(
      report.checks.map((check: any) => check.ok),
      [true, true]
    )
    assert.deepEqual(
      report.bySize.map((size: any) => [size.size, size.orders, size.submitted, size.succeeded]),
      [
        ['9', 2, 2, 1],
        ['10', 2, 2, 1],
        ['11', 3, 2, 0],
      ]
    )
    assert.equal(report.bySize[2].cancelledAfterSuccess, 1)
    assert.lengthOf(report.lines, 7)
    assert.deepEqual(
      report.lines.filter((line: any) => line.mine),
      [],
      'nobody is signed in'
    )
    assert.deepEqual(report.product, {
      id: product.id,
      title: product.title,
      image: product.image,
      releaseAt: report.product.releaseAt,
      releaseMode: 'first-come',
      retailer: 'nike',
      restockUntil: null,
    })

    // No personal data, no order ids or numbers.
    const text = JSON.stringify(report)
    for (const [index, order] of orders.entries()) {
      assert.notInclude(text, order.publicId)
      assert.notInclude(text, orderNumber(order.id))
      assert.notInclude(text, customers[index].user.email)
      assert.notInclude(text, order.name)
    }

    // Signed in: the customer's own line is marked.
    const mine = await client
      .get(`/api/releases/${product.id}/report`)
      .bearerToken(customers[3].token)
    const marked = mine.body().lines.filter((line: any) => line.mine)
    const words = 'Not secured: the retailer declined the payment. Nothing charged;'
    assert.deepEqual(marked, [
      {
        size: '10',
        outcome: 'failed',
        reason: 'declined',
        words: `${words} your $1.00 check was released.`,
        mine: true,
      },
    ])
    const theirs = report.lines.find((line: any) => line.reason === 'declined')
    assert.equal(theirs.words, `${words} the $1.00 check was released.`)
  })

  test('a published report is served from memory for 30 s, then built again', async ({
    client,
    assert,
  }) => {
    const { product, succeeded } = await settledRelease()
    const first = await client.get(`/api/releases/${product.id}/report`)
    assert.equal(first.body().fees.refundedCents, 3000)
    await adminOrderActions.refundFee(
      succeeded[1].publicId,
      { amountCents: 100, reason: 'Goodwill.' },
      ADMIN
    )
    const kept = await client.get(`/api/releases/${product.id}/report`)
    assert.equal(kept.body().fees.refundedCents, 3000)
    clock.travel(31_000)
    const fresh = await client.get(`/api/releases/${product.id}/report`)
    assert.equal(fresh.body().fees.refundedCents, 3100)
    assert.deepEqual(
      fresh.body().checks.map((check: any) => check.ok),
      [true, true]
    )
  })

  test('a report whose figures do not add up is withheld (409), and the console says why', async ({
    client,
    assert,
  }) => {
    const { product, succeeded } = await settledRelease()
    await db
      .from('payment_ledger')
      .where('order_id', succeeded[1].id)
      .where('kind', 'fee')
      .update({ amount_cents: 2600 })
    const response = await client.get(`/api/releases/${product.id}/report`)
    response.assertStatus(409)
    response.assertBodyContains({ success: false, code: 'report_inconsistent' })
    assert.notProperty(response.body(), 'fees')

    const { token } = await adminWithToken()
    const console = await client.get(`/api/admin/releases/${product.id}/report`).bearerToken(token)
    console.assertStatus(200)
    const fees = console.body().checks.find((check: any) => check.name.startsWith('fees'))
    assert.isFalse(fees.ok)
    assert.include(fees.detail, '$76.00 charged')
  })

  test("the console's report reconciles the ledger with the sandbox, and lists each planted difference", async ({
    client,
    assert,
  }) => {
    const { product, succeeded, cancelled } = await settledRelease()
    const { token } = await adminWithToken()
    const read = async () => {
      const response = await client
        .get(`/api/admin/releases/${product.id}/report`)
        .bearerToken(token)
      response.assertStatus(200)
      return response.body()
    }

    const clean = await read()
    assert.isTrue(clean.settled)
    assert.equal(clean.reconciliation.gateway, 'sandbox')
    assert.isTrue(clean.reconciliation.balanced)
    assert.deepEqual(clean.reconciliation.differences, [])
    // Three fees and two refunds, each found at the gateway for the same amount.
    assert.equal(clean.reconciliation.matched, 5)
    assert.deepEqual(clean.reconciliation.ledger, {
      chargedCents: 7500,
      refundedCents: 3000,
      netCents: 4500,
    })
    assert.deepEqual(clean.reconciliation.gatewayRecords, clean.reconciliation.ledger)
    assert.lengthOf(clean.orderNumbers, 7)

    // Planted in the sandbox's own tables: a fee captured a cent more than the ledger says...
    const second = await Order.findOrFail(succeeded[1].id)
    await db
      .from('sandbox_payment_intents')
      .where('id', second.feePaymentId!)
      .update({ amount: 2501 })
    // ...a refund the ledger never made...
    const first = await Order.findOrFail(succeeded[0].id)
    await db.table('sandbox_refunds').insert({
      id: 're_sbx_planted000000000000000',
      payment_intent_id: first.feePaymentId,
      amount: 123,
      status: 'succeeded',
      created_at: new Date().toISOString().slice(0, 19).replace('T', ' '),
    })
    // ...and a refund of ours the gateway lost.
    const lost = await db
      .from('payment_ledger')
      .where('order_id', cancelled.id)
      .where('kind', 'refund')
      .firstOrFail()
    await db.from('sandbox_refunds').where('id', lost.gateway_ref).delete()

    const planted = await read()
    assert.isFalse(planted.reconciliation.balanced)
    const differences = planted.reconciliation.differences.map((item: any) => ({
      kind: item.kind,
      money: item.money,
      orderNumber: item.orderNumber,
      ledgerCents: item.ledgerCents,
      gatewayCents: item.gatewayCents,
      differenceCents: item.differenceCents,
    }))
    assert.sameDeepMembers(differences, [
      {
        kind: 'amount_differs',
        money: 'charge',
        orderNumber: orderNumber(second.id),
        ledgerCents: 2500,
        gatewayCents: 2501,
        differenceCents: 1,
      },
      {
        kind: 'missing_in_ledger',
        money: 'refund',
        orderNumber: orderNumber(first.id),
        ledgerCents: null,
        gatewayCents: 123,
        differenceCents: -123,
      },
      {
        kind: 'missing_at_gateway',
        money: 'refund',
        orderNumber: orderNumber(cancelled.id),
        ledgerCents: 2500,
        gatewayCents: null,
        differenceCents: 2500,
      },
    ])
    assert.deepEqual(planted.reconciliation.gatewayRecords, {
      chargedCents: 7501,
      refundedCents: 500 + 123,
      netCents: 7501 - 623,
    })
  })

  test('/api/releases lists settled releases with their rate, and the rate per retailer over 90 days', async ({
    client,
    assert,
  }) => {
    const nike = await settledRelease({ tags: 'nike' })
    const kith = await plannedRelease(
      [
        { size: 'M', result: 'success' },
        { size: 'L', result: 'sold_out' },
      ],
      { tags: 'kith,shopify', sizeType: 'clothing', sizes: ['S', 'M', 'L'] }
    )
    await releaseRunner.run({ productId: kith.product.id, engine: kith.engine })
    // An old release (out of the window) and an open one (not settled) are left out.
    const old = await plannedRelease([{ size: '9', result: 'success' }], { tags: 'nike' })
    await releaseRunner.run({ productId: old.product.id, engine: old.engine })
    await Product.query().where('id', old.product.id).update({ release_at: '2000-01-01 00:00:00' })
    const open = await plannedRelease([{ size: '9', result: 'success' }], { tags: 'nike' })

    const response = await client.get('/api/releases')
    response.assertStatus(200)
    const body = response.body()
    const ids = body.releases.map((item: any) => item.productId)
    assert.includeMembers(ids, [nike.product.id, kith.product.id])
    assert.notInclude(ids, old.product.id)
    assert.notInclude(ids, open.product.id)
    const nikeRow = body.releases.find((item: any) => item.productId === nike.product.id)
    assert.containsSubset(nikeRow, {
      title: nike.product.title,
      retailer: 'nike',
      orders: 7,
      submitted: 6,
      succeeded: 2,
      successRate: 0.3333,
    })
    assert.equal(body.windowDays, 90)
    const kithRate = body.retailers.find((item: any) => item.retailer === 'kith')
    assert.containsSubset(kithRate, { releases: 1, submitted: 2, succeeded: 1, successRate: 0.5 })
    const nikeRate = body.retailers.find((item: any) => item.retailer === 'nike')
    assert.isAtLeast(nikeRate.releases, 1)
    assert.equal(
      nikeRate.successRate,
      Math.round((nikeRate.succeeded / nikeRate.submitted) * 10_000) / 10_000
    )
  })

  test('with Stripe, the console reconciles against its balance transactions (a local stand-in of the API)', async ({
    client,
    assert,
  }) => {
    const { product, cancelled } = await settledRelease()
    // Stripe's records of the same money: a charge per captured fee, a refund per refund.
    const intents = await db
      .from('sandbox_payment_intents')
      .where('status', 'succeeded')
      .select('id', 'amount', 'metadata')
    const refunds = await db.from('sandbox_refunds').select('id', 'amount', 'payment_intent_id')
    const lostRefund = await db
      .from('payment_ledger')
      .where('order_id', cancelled.id)
      .where('kind', 'refund')
      .firstOrFail()
    const transactions = [
      ...intents.map((intent) => ({
        id: `txn_${intent.id}`,
        object: 'balance_transaction',
        type: 'charge',
        amount: Number(intent.amount),
        created: Math.floor(Date.now() / 1000),
        source: {
          id: `ch_${intent.id}`,
          object: 'charge',
          payment_intent: intent.id,
          metadata: JSON.parse(intent.metadata ?? '{}'),
        },
      })),
      ...refunds
        .filter((refund) => refund.id !== lostRefund.gateway_ref)
        .map((refund) => ({
          id: `txn_${refund.id}`,
          object: 'balance_transaction',
          type: 'refund',
          amount: -Number(refund.amount),
          created: Math.floor(Date.now() / 1000),
          source: { id: refund.id, object: 'refund', payment_intent: refund.payment_intent_id },
        })),
    ]
    const requests: string[] = []
    const stand = createServer((request, response) => {
      requests.push(request.url ?? '')
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          object: 'list',
          url: '/v1/balance_transactions',
          has_more: false,
          data: transactions,
        })
      )
    })
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve))
    const previous = useGateway(
      new StripeGateway({
        secretKey: 'sk_test_offline',
        webhookSecret: 'whsec_offline',
        webhookToleranceSeconds: 300,
        currency: 'usd',
        host: '127.0.0.1',
        port: (stand.address() as AddressInfo).port,
        protocol: 'http',
        maxNetworkRetries: 0,
        timeoutMs: 5000,
      })
    )
    try {
      const { token } = await adminWithToken()
      const response = await client
        .get(`/api/admin/releases/${product.id}/report`)
        .bearerToken(token)
      response.assertStatus(200)
      const reconciliation = response.body().reconciliation
      assert.equal(reconciliation.gateway, 'stripe')
      assert.equal(reconciliation.matched, 4)
      assert.deepEqual(
        reconciliation.differences.map((item: any) => [
          item.kind,
          item.money,
          item.orderNumber,
          item.ledgerCents,
          item.gatewayRef,
        ]),
        [['missing_at_gateway', 'refund', orderNumber(cancelled.id), 2500, lostRefund.gateway_ref]]
      )
      assert.match(requests[0], /^\/v1\/balance_transactions\?/)
      assert.include(decodeURIComponent(requests[0]), 'expand[0]=data.source')
    } finally {
      useGateway(previous)
      await new Promise((resolve) => stand.close(resolve))
    }
  })
})
