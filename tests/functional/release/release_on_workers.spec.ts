import { test } from '@japa/runner'
import { releaseConfig } from '#release/services/release_config'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import db from '@adonisjs/lucid/services/db'
import AuditLog from '#core/models/audit_log'
import Order from '#orders/models/order'
import { BullmqDriver } from '#core/jobs/bullmq_driver'
import { jobs } from '#core/jobs/jobs'
import type { QueueDriver } from '#core/jobs/queue_driver'
import { releaseRunner } from '#release/services/release_runner'
import { SimulatorEngine, signPayload, WebhookEngine } from '#release/services/checkout_engines'
import { sweepResultsJob } from '#release/jobs/settlement_jobs'
import { presentRuns } from '#release/services/release_status'
import ReleaseRun from '#release/models/release_run'
import { RELEASE_LOCK, releaseLock } from '#release/services/release_lock'
import { LOCK_TABLE } from '#core/services/lucid_lock_store'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'
import { staffWithToken } from '#tests/helpers'

/** Tasks are signed with one secret, results verified with another (.env.test's). */
const { taskSecret: TASK_SECRET, resultsSecret: RESULTS_SECRET } = releaseConfig().webhook
const runBullmq = await redisTestsRun()

/** The customers, orders and products these tests commit are theirs by this e-mail prefix. */
const PREFIX = 'relw-'

/**
 * Waits for what a worker's job writes. The ceiling is above the money lock's wait (15 s) and a
 * job's retry back-off, so a job that had to wait its turn still counts.
 */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 25_000) {
  const stop = Date.now() + ms
  let value = await read()
  while (!done(value) && Date.now() < stop) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await read()
  }
  return value
}

/** What the queues hold and why their jobs failed: the story of a result that was not applied. */
async function jobsSeen(driver: BullmqDriver) {
  const counts = await driver.status()
  const failures = await Promise.all(
    (['results', 'gateway'] as const).map((name) => driver.failed(name, 5))
  )
  const events = await db.from('checkout_result_events').select('response')
  const tasks = await db.from('release_tasks').select('order_id', 'status', 'reason', 'last_error')
  return JSON.stringify({ counts, failures: failures.flat(), events, tasks })
}

/** An owner of the console, committed under this file's prefix so the cleanup finds it. */
const adminWithToken = () =>
  staffWithToken('owner', { email: `${PREFIX}admin-${Date.now().toString(36)}@example.test` })

/*
| On committed data, not in one global transaction: the workers' jobs and the test each use
| their own connections, so row locks and the money lock meet as they do in production, and no
| job's writes can vanish with another's savepoint. The driver is BullMQ before any fixture is
| made, so no job of these tests waits in the database queue.
*/
test.group('Release day on BullMQ workers: no request does the long work', (group) => {
  let driver: BullmqDriver
  let previous: QueueDriver
  group.each.setup(async () => {
    driver = new BullmqDriver(TEST_REDIS_URL, `dropslot-test-release-${process.pid}-${Date.now()}`)
    previous = jobs.use(driver)
    await removeCommittedReleaseData(PREFIX)
    const restoreSandbox = await sandboxSnapshot()
    const lastEvent = await db.from('checkout_result_events').max('id as id').first()
    return async () => {
      await jobs.stop()
      await driver.obliterate()
      await jobs.close()
      jobs.use(previous)
      await db
        .from('checkout_result_events')
        .where('id', '>', lastEvent?.id ?? 0)
        .delete()
      await db.from(LOCK_TABLE).where('key', RELEASE_LOCK).delete()
      await removeCommittedReleaseData(PREFIX)
      await restoreSandbox()
    }
  })

  test('the console run answers 202 and a worker runs it, audited as the admin', async ({
    client,
    assert,
  }) => {
    const { user, token } = await adminWithToken()
    const { product, orders } = await releasedProductWithOrders(2, { emailPrefix: PREFIX })

    const response = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ productId: product.id, dryRun: false, confirm: String(product.id) })
    response.assertStatus(202)
    assert.deepEqual(response.body(), { queued: true, productId: product.id, dryRun: false })
    // Nothing ran in the request.
    const untouched = await Order.findOrFail(orders[0].id)
    assert.equal(untouched.status, 'pending')

    await jobs.work({ queues: ['release'], schedules: false })
    const run = await until(
      () => db.from('release_runs').where('trigger', 'console').orderBy('id', 'desc').first(),
      (row) => row?.status === 'finished'
    )
    assert.equal(run?.status, 'finished')
    assert.equal(run?.orders_submitted, 2)
    const audit = await until(
      () => AuditLog.query().where('action', 'release.run').where('actor_user_id', user.id),
      (rows) => rows.length === 1
    )
    assert.equal(audit[0].subjectId, String(run.id))
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(30_000)

  test('a console run while another holds the lock is refused at once', async ({ client }) => {
    const { token } = await adminWithToken()
    await releaseLock.acquire(RELEASE_LOCK, 'cli:ops@host', 60_000)
    const response = await client
      .post('/api/admin/release-runs')
      .bearerToken(token)
      .json({ dryRun: true })
    response.assertStatus(409)
    response.assertBodyContains({ code: 'release_run_in_progress' })
  }).skip(!runBullmq, 'Redis is not running on this machine')

  test("the bot's callback answers 202; a worker applies it once, a replay gets the answer", async ({
    client,
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2, { emailPrefix: PREFIX })
    const bot = createServer((request, response) => {
      request.resume()
      request.on('end', () => response.end('{}'))
    })
    await new Promise<void>((resolve) => bot.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(bot.address() as AddressInfo).port}/tasks`
    try {
      await releaseRunner.run({
        productId: product.id,
        engine: new WebhookEngine({
          url,
          taskSecret: TASK_SECRET,
          attempts: 1,
          backoffMs: 10,
          timeoutMs: 2000,
        }),
      })
    } finally {
      await new Promise((resolve) => bot.close(resolve))
    }

    const payload = {
      results: [
        { orderId: orders[0].publicId, status: 'success', confirmationNumber: 'NK-W1' },
        { orderId: orders[1].publicId, status: 'fail', reason: 'Sold out at the retailer' },
      ],
    }
    const post = () => {
      const body = JSON.stringify(payload)
      return client
        .post('/api/hooks/checkout-results')
        .header('content-type', 'application/json')
        .header('x-dropslot-signature', signPayload(RESULTS_SECRET, body))
        .json(payload)
    }
    const first = await post()
    first.assertStatus(202)
    assert.deepEqual(first.body(), { received: true, queued: true, total: 2, duplicate: false })
    const pending = await Order.findOrFail(orders[0].id)
    assert.equal(pending.status, 'processing')

    await jobs.work({ queues: ['results', 'gateway'], schedules: false })
    // The order is a success before its fee is charged, in the same job: wait for the fee.
    const applied = (order: Order) => order.status === 'success' && order.feeStatus === 'paid'
    const won = await until(() => Order.findOrFail(orders[0].id), applied)
    const seen = applied(won) ? '' : `${won.status}/${won.feeStatus}; ${await jobsSeen(driver)}`
    assert.equal(won.status, 'success', seen)
    assert.equal(won.feeStatus, 'paid', seen)
    const lost = await until(
      () => Order.findOrFail(orders[1].id),
      (order) => order.holdStatus === 'released'
    )
    assert.equal(lost.status, 'fail')
    // The delivery's answer is stored last: a replay before that would be applied (once) again.
    await until(
      () => db.from('checkout_result_events').whereNotNull('response').count('* as n'),
      (rows) => Number(rows[0].n) > 0
    )

    const replay = await post()
    replay.assertStatus(200)
    assert.isTrue(replay.body().duplicate)
    assert.equal(replay.body().accepted, 2)
    const fees = await db
      .from('payment_ledger')
      .where('order_id', orders[0].id)
      .where('kind', 'fee')
    assert.lengthOf(fees, 1)
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(30_000)

  test("a run's fees and hold releases wait for the gateway queue, then move once each", async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(4, { emailPrefix: PREFIX })
    const engine = new SimulatorEngine({ successRate: 0.5, seed: 'gateway-queue', delayMs: 0 })
    const report = await releaseRunner.run({ productId: product.id, engine })

    assert.equal(report.status, 'finished')
    assert.equal(report.submitted, 4)
    assert.equal(report.succeeded + report.failed, 4)
    assert.equal(report.settling, 4)
    assert.equal(report.feesCharged, 0)
    // The results are known, no money moved yet: the orders wait for the gateway queue.
    const ids = orders.map((order) => order.id)
    const before = await Order.query().whereIn('id', ids)
    assert.deepEqual([...new Set(before.map((order) => order.status))], ['processing'])
    const [shown] = await presentRuns([await ReleaseRun.findOrFail(report.runId)])
    assert.equal(shown.ordersSettling, 4)

    await jobs.work({ queues: ['gateway'], schedules: false })
    const [after] = await until(
      async () => presentRuns([await ReleaseRun.findOrFail(report.runId)]),
      ([run]) => run.ordersSettling === 0
    )
    const settled = await Order.query().whereIn('id', ids)
    const won = settled.filter((order) => order.status === 'success')
    assert.equal(won.length, report.succeeded)
    for (const order of won) assert.equal(order.feeStatus, 'paid')
    for (const order of settled) assert.equal(order.holdStatus, 'released')
    const fees = await db.from('payment_ledger').whereIn('order_id', ids).where('kind', 'fee')
    assert.lengthOf(fees, report.succeeded)
    assert.equal(after.ordersSettling, 0)
    assert.equal(after.feesCharged, report.succeeded)
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(30_000)

  test('a result whose job was lost is found by the sweep and applied once', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(1, { emailPrefix: PREFIX })
    const engine = new SimulatorEngine({ successRate: 1, seed: 'lost-job', delayMs: 0 })
    const report = await releaseRunner.run({ productId: product.id, engine })
    assert.equal(report.settling, 1)
    // Redis lost the job: the task still says "resulted", nothing is queued.
    await driver.obliterate()
    await db
      .from('release_tasks')
      .where('order_id', orders[0].id)
      .update({ result_at: '2000-01-01 00:00:00' })

    const swept = (await sweepResultsJob.handle({})) as { dispatched: number }
    assert.isAtLeast(swept.dispatched, 1)
    await jobs.work({ queues: ['gateway'], schedules: false })
    // The job's last step is the timeline line (after the fee and the hold): wait for it.
    const outcomeLines = () =>
      db.from('order_events').where('order_id', orders[0].id).where('kind', 'outcome')
    const timeline = await until(outcomeLines, (rows) => rows.length > 0)
    assert.lengthOf(timeline, 1)
    const won = await Order.findOrFail(orders[0].id)
    assert.equal(won.status, 'success')
    assert.equal(won.feeStatus, 'paid')
    const fees = await db
      .from('payment_ledger')
      .where('order_id', orders[0].id)
      .where('kind', 'fee')
    assert.lengthOf(fees, 1)
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(30_000)
})
