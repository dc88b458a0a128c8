import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import Product from '#catalog/models/product'
import ReleaseRun from '#release/models/release_run'
import { releaseRunner, RELEASE_LOCK } from '#release/services/release_runner'
import { releasedProductWithOrders } from '#tests/support/release'
import { adminWithToken, productFor } from '#tests/helpers'

/** A real run whose process died five minutes ago, still marked running. */
async function deadRun(owner = 'gone-host:4242:dead') {
  const then = DateTime.now().minus({ minutes: 5 })
  return ReleaseRun.create({
    productId: null,
    engine: 'simulator',
    dryRun: false,
    status: 'running',
    trigger: 'cli',
    ordersSubmitted: 0,
    ordersSucceeded: 0,
    ordersFailed: 0,
    feesCharged: 0,
    feesDue: 0,
    lockOwner: owner,
    error: null,
    startedAt: then,
    heartbeatAt: then,
  })
}

/** The runs of a product (another test's runs are not this one's business). */
async function runRows(productId: number) {
  const rows = await db.from('release_runs').where('product_id', productId).count('* as total')
  return Number(rows[0].total)
}

test.group('Release runs: history an operator can trust', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a run whose process died reads interrupted at once; the next run records it', async ({
    assert,
    client,
  }) => {
    const { token } = await adminWithToken()
    const dead = await deadRun()
    const shown = await client.get(`/api/admin/release-runs/${dead.id}`).bearerToken(token)
    shown.assertStatus(200)
    assert.equal(shown.body().status, 'interrupted')
    assert.match(shown.body().error, /No heartbeat since .* the process running it stopped/)

    const { product, orders } = await releasedProductWithOrders(1)
    const report = await releaseRunner.run({ productId: product.id, engine: 'simulator' })
    assert.equal(report.submitted, 1)
    await dead.refresh()
    assert.equal(dead.status, 'interrupted')
    assert.include(dead.error, `run #${report.runId} took its orders over`)
    const order = await Order.findOrFail(orders[0].id)
    assert.oneOf(order.status, ['success', 'fail'])

    const list = await client
      .get(`/api/admin/release-runs?filter=${encodeURIComponent('{"status":"interrupted"}')}`)
      .bearerToken(token)
    list.assertStatus(200)
    assert.include(
      list.body().map((row: { id: number }) => row.id),
      dead.id
    )
  })

  test('a tick with nothing to do leaves no run row', async ({ assert }) => {
    const product = await productFor({ totalStock: 5, stockTaken: 0 })
    await Product.query()
      .where('id', product.id)
      .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
    const before = await runRows(product.id)
    const report = await releaseRunner.run({ productId: product.id, trigger: 'schedule' })
    assert.equal(report.status, 'finished')
    assert.isNull(report.runId)
    assert.equal(await runRows(product.id), before)
  })

  test('a product made unavailable pauses its release', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(1)
    await Product.query().where('id', product.id).update({ avail: false })

    const all = await releaseRunner.run({ engine: 'simulator' })
    assert.notInclude(
      all.products.map((item) => item.id),
      product.id
    )
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'pending')
    await assert.rejects(
      () => releaseRunner.run({ productId: product.id, engine: 'simulator' }),
      /is paused/
    )

    await Product.query().where('id', product.id).update({ avail: true })
    const resumed = await releaseRunner.run({ productId: product.id, engine: 'simulator' })
    assert.equal(resumed.submitted, 1)
  })

  test('release:status --product shows the last run of that product', async ({ assert }) => {
    const first = await releasedProductWithOrders(1)
    const second = await releasedProductWithOrders(1)
    const runA = await releaseRunner.run({ productId: first.product.id, engine: 'simulator' })
    const runB = await releaseRunner.run({ productId: second.product.id, engine: 'simulator' })
    const statusA = await releaseRunner.status(first.product.id)
    assert.equal(statusA.lastRun?.id, runA.runId)
    assert.equal(statusA.lastRun?.productTitle, first.product.title)
    const statusB = await releaseRunner.status(second.product.id)
    assert.equal(statusB.lastRun?.id, runB.runId)
    assert.isNumber(statusB.lastRun?.durationSeconds)
  })

  test('unlock frees a dead run lock, refuses a live one unless forced', async ({ assert }) => {
    const dead = await deadRun('gone-host:1:dead')
    await db.table('locks').insert({
      key: RELEASE_LOCK,
      owner: 'gone-host:1:dead',
      expiration: Date.now() - 1000,
    })
    const freed = await releaseRunner.unlock({ by: 'cli:ops@host' })
    assert.deepEqual(freed, { unlocked: true, owner: 'gone-host:1:dead', interruptedRuns: 1 })
    await dead.refresh()
    assert.equal(dead.status, 'interrupted')
    assert.include(dead.error, 'unlocked by cli:ops@host')

    await db.table('locks').insert({
      key: RELEASE_LOCK,
      owner: 'busy-host:2:alive',
      expiration: Date.now() + 60_000,
    })
    await assert.rejects(() => releaseRunner.unlock({ by: 'cli:ops@host' }), /is alive/)
    const forced = await releaseRunner.unlock({ by: 'cli:ops@host', force: true })
    assert.isTrue(forced.unlocked)
    const lock = await db.from('locks').where('key', RELEASE_LOCK).first()
    assert.isNull(lock ?? null)
  })
})
