import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import Order from '#orders/models/order'
import AuditLog from '#core/models/audit_log'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import EmailMessage from '#notifications/models/email_message'
import ReleaseRun from '#release/models/release_run'
import { releaseConfig } from '#release/services/release_config'
import { releaseLock } from '#release/services/release_lock'
import { RELEASE_LOCK } from '#release/services/release_runner'
import { SimulatorEngine } from '#release/services/checkout_engines'
import { releasedProductWithOrders } from '#tests/support/release'
import { adminWithToken } from '#tests/helpers'
import { makeOrder } from './fixtures.js'

/** Ledger rows and e-mails of these orders only: other work may write its own meanwhile. */
async function moneyAndMailOf(orders: { id: number }[]) {
  const ids = orders.map((order) => order.id)
  const [ledger, mail] = await Promise.all([
    PaymentLedgerEntry.query().whereIn('order_id', ids).count('* as total'),
    EmailMessage.query().whereIn('order_id', ids).count('* as total'),
  ])
  return { ledger: Number(ledger[0].$extras.total), mail: Number(mail[0].$extras.total) }
}

/** The newest id of a table now: rows above it were written by the test that took it. */
async function lastIdOf(model: typeof ReleaseRun | typeof AuditLog) {
  const newest = await model.query().orderBy('id', 'desc').first()
  return newest?.id ?? 0
}

async function runsSince(lastRunId: number) {
  return ReleaseRun.query().where('id', '>', lastRunId)
}

async function auditsSince(lastAuditId: number, action: string) {
  return AuditLog.query().where('id', '>', lastAuditId).where('action', action)
}

test.group('Admin: run release day from the console', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('POST /api/admin/release-runs runs the release and answers the run with its counts', async ({
    client,
    assert,
  }) => {
    const { user, token } = await adminWithToken()
    const { product, orders } = await releasedProductWithOrders(4)
    const { successRate, seed } = releaseConfig().simulator
    const successes = orders.filter(
      (order) => SimulatorEngine.outcome(order.publicId, successRate, seed).status === 'success'
    ).length

    const response = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: product.id, dryRun: false, confirm: String(product.id) })
    response.assertStatus(201)
    const run = response.body()
    assert.isNumber(run.id)
    assert.equal(run.status, 'finished')
    assert.equal(run.trigger, 'console')
    assert.equal(run.productId, product.id)
    assert.isFalse(run.dryRun)
    assert.equal(run.ordersSubmitted, 4)
    assert.equal(run.ordersSucceeded, successes)
    assert.equal(run.ordersFailed, 4 - successes)
    assert.equal(run.feesCharged, successes)
    assert.deepEqual(
      run.report.products.map((item: { id: number }) => item.id),
      [product.id]
    )

    for (const original of orders) {
      const order = await Order.findOrFail(original.id)
      assert.include(['success', 'fail'], order.status)
    }
    // The list the console reads shows the same run.
    const shown = await client.get(`/api/admin/release-runs/${run.id}`).bearerToken(token)
    assert.equal(shown.body().ordersSubmitted, 4)

    const audit = await AuditLog.query()
      .where('action', 'release.run')
      .where('subject_id', String(run.id))
      .firstOrFail()
    assert.equal(audit.actorUserId, user.id)
    assert.equal(audit.subjectId, String(run.id))
    assert.equal((audit.meta as Record<string, unknown>).submitted, 4)
  })

  test('a dry run answers the plan and changes nothing', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const { product, orders } = await releasedProductWithOrders(2)
    const before = await moneyAndMailOf(orders)
    const lastAudit = await lastIdOf(AuditLog)

    const response = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: product.id, dryRun: true })
    response.assertStatus(201)
    assert.isTrue(response.body().dryRun)
    assert.equal(response.body().ordersSubmitted, 0)
    assert.equal(response.body().report.plan.readyToSubmit, 2)
    for (const original of orders) {
      const order = await Order.findOrFail(original.id)
      assert.equal(order.status, 'pending')
      assert.equal(order.holdStatus, 'placed')
    }
    assert.deepEqual(await moneyAndMailOf(orders), before)
    assert.lengthOf(await auditsSince(lastAudit, 'release.dry_run'), 1)
  })

  test('409 while another run holds the lock; nothing is submitted', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const { product, orders } = await releasedProductWithOrders(1)
    assert.isTrue(await releaseLock.acquire(RELEASE_LOCK, 'cli:ops@host', 60_000))
    const lastRun = await lastIdOf(ReleaseRun)
    const lastAudit = await lastIdOf(AuditLog)

    const response = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: product.id, dryRun: false, confirm: String(product.id) })
    response.assertStatus(409)
    assert.equal(response.body().code, 'release_run_in_progress')
    assert.match(response.body().error, /Another release run is in progress \(cli:ops@host\)/)
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'pending')
    assert.lengthOf(await runsSince(lastRun), 0)
    assert.lengthOf(await auditsSince(lastAudit, 'release.run'), 0)
  })

  test('bad input and unknown or unreleased products are clear 4xx', async ({ client }) => {
    const { token } = await adminWithToken()
    const bad = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: 'abc', dryRun: 'maybe' })
    bad.assertStatus(422)
    const unknown = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: 999999, dryRun: false, confirm: '999999' })
    unknown.assertStatus(404)
    unknown.assertBodyContains({ code: 'product_not_found' })
  })

  test('orders show a fee that is due, and the list filters on it', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const due = await makeOrder({ status: 'success' })
    await Order.query().where('id', due.id).update({ fee_status: 'failed', fee_attempts: 1 })
    const paid = await makeOrder({ status: 'success' })
    await Order.query().where('id', paid.id).update({ fee_status: 'paid' })

    const list = await client
      .get('/api/admin/orders')
      .qs({ filter: JSON.stringify({ feeDue: true }) })
      .bearerToken(token)
    list.assertStatus(200)
    assert.deepEqual(
      list.body().map((row: { id: string }) => row.id),
      [due.publicId]
    )
    assert.isTrue(list.body()[0].feeDue)
    assert.equal(list.body()[0].feeStatus, 'failed')

    const show = await client.get(`/api/admin/orders/${paid.publicId}`).bearerToken(token)
    assert.isFalse(show.body().feeDue)
    assert.equal(show.body().feeStatus, 'paid')
  })

  test('the dashboard shows the last real release run', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const { product } = await releasedProductWithOrders(1)
    const before = await client.get('/api/admin/dashboard').bearerToken(token)
    assert.isNull(before.body().lastReleaseRun)
    assert.notProperty(before.body().unavailable, 'releaseRuns')

    const run = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: product.id, dryRun: false, confirm: String(product.id) })
    await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: product.id, dryRun: true })
    const after = await client.get('/api/admin/dashboard').bearerToken(token)
    assert.equal(after.body().lastReleaseRun.id, run.body().id)
    assert.equal(after.body().lastReleaseRun.ordersSubmitted, 1)
  })

  test('a request that is not parsed JSON runs nothing: 415 or 400, no run, no charge', async ({
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { orders } = await releasedProductWithOrders(2)
    const before = await moneyAndMailOf(orders)
    const lastRun = await lastIdOf(ReleaseRun)
    const base = `http://${process.env.HOST}:${process.env.PORT}/api/admin/release-runs`
    const send = (contentType: string, body: string) =>
      fetch(base, {
        method: 'POST',
        headers: { 'authorization': `Bearer ${token}`, 'content-type': contentType },
        body,
      })

    const text = await send('text/plain', '{"dryRun":true}')
    assert.equal(text.status, 415)
    assert.deepInclude(await text.json(), { success: false, code: 'unsupported_media_type' })
    const form = await send('application/x-www-form-urlencoded', 'dryRun=false&confirm=all')
    assert.equal(form.status, 415)
    const array = await send('application/json', '[{"dryRun":false,"confirm":"all"}]')
    assert.equal(array.status, 400)
    const arrayBody = (await array.json()) as { code: string }
    assert.equal(arrayBody.code, 'malformed_body')
    const empty = await send('application/json', '')
    assert.equal(empty.status, 422)
    const emptyBody = (await empty.json()) as { errors: Record<string, string> }
    assert.equal(emptyBody.errors.dryRun, 'Say whether this is a dry run (dryRun: true or false).')

    assert.lengthOf(await runsSince(lastRun), 0)
    assert.deepEqual(await moneyAndMailOf(orders), before)
    for (const original of orders) {
      const order = await Order.findOrFail(original.id)
      assert.equal(order.status, 'pending')
    }
  })

  test('dryRun must be a real boolean, and a real run must name what it runs in confirm', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { product, orders } = await releasedProductWithOrders(1)
    const lastRun = await lastIdOf(ReleaseRun)
    const post = (body: Record<string, unknown>, qs: Record<string, string> = {}) =>
      client.post('/api/admin/release-runs').qs(qs).bearerToken(token).json(body)

    const missing = await post({ productId: product.id })
    missing.assertStatus(422)
    assert.property(missing.body().errors, 'dryRun')
    const stringly = await post({ productId: product.id, dryRun: 'true' })
    stringly.assertStatus(422)
    assert.property(stringly.body().errors, 'dryRun')

    const unconfirmed = await post({ productId: product.id, dryRun: false })
    unconfirmed.assertStatus(422)
    assert.match(unconfirmed.body().errors.confirm, /confirm/i)
    const wrongProduct = await post({ productId: product.id, dryRun: false, confirm: 'all' })
    wrongProduct.assertStatus(422)
    assert.equal(
      wrongProduct.body().errors.confirm,
      `Type "${product.id}" to confirm a real run of product ${product.id}.`
    )
    const allButNamed = await post({ dryRun: false, confirm: String(product.id) })
    allButNamed.assertStatus(422)
    assert.equal(
      allButNamed.body().errors.confirm,
      'Type "all" to confirm a real run of every released product.'
    )
    // The query string does not count: only the JSON body says what runs.
    const viaQuery = await post({ dryRun: false }, { confirm: 'all' })
    viaQuery.assertStatus(422)

    assert.lengthOf(await runsSince(lastRun), 0)
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'pending')

    const all = await post({ dryRun: false, confirm: 'all' })
    all.assertStatus(201)
    assert.isNull(all.body().productId)
    assert.equal(all.body().ordersSubmitted, 1)
  })

  test('marking an order by hand takes JSON only', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const order = await makeOrder({ status: 'pending' })
    const response = await fetch(
      `http://${process.env.HOST}:${process.env.PORT}/api/admin/orders/${order.publicId}/mark`,
      {
        method: 'POST',
        headers: { 'authorization': `Bearer ${token}`, 'content-type': 'text/plain' },
        body: '{"status":"success"}',
      }
    )
    assert.equal(response.status, 415)
    await order.refresh()
    assert.equal(order.status, 'pending')
    const json = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(token)
      .json([{ status: 'success' }])
    json.assertStatus(400)
  })
})
