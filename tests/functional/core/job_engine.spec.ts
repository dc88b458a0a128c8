import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import Order from '#orders/models/order'
import EmailMessage from '#notifications/models/email_message'
import { BullmqDriver } from '#core/jobs/bullmq_driver'
import { InProcessDriver } from '#core/jobs/in_process_driver'
import { defineJob, jobRegistry } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'
import type { QueueDriver } from '#core/jobs/queue_driver'
import { placeHoldJob, sweepHoldsJob } from '#payments/jobs/hold_jobs'
import { sweepOutboxJob } from '#notifications/jobs/email_jobs'
import { SmtpSink } from '#tests/support/smtp_sink'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'
import { committedDataUnder } from '#tests/support/release'
import { customerWithCard, productFor, profileFor, TEST_CARDS } from '#tests/helpers'

const REDIS_URL = TEST_REDIS_URL
const SMTP_PORT = env.get('SMTP_PORT', 2526)

const runBullmq = await redisTestsRun()

/** The customers (by e-mail) and products (by slug) these tests commit: theirs by this prefix. */
const PREFIX = 'jobeng-'

/**
 * Reads until `done` or the ceiling: a worker just started on a busy CI machine has taken over
 * 8 s before its first job, and a job may wait its turn for the money lock (15 s) and retry, so
 * the ceiling is above both (a passing run waits only for the work).
 */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 25_000) {
  const until = Date.now() + ms
  let value = await read()
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await read()
  }
  return value
}

let bought = 0

/**
 * A customer with a card buys a slot over HTTP, as the storefront does (201): the order as
 * stored (its hold queued, its receipt written). Customer and product carry the prefix.
 */
async function buySlot(client: any) {
  const tag = `${Date.now().toString(36)}-${++bought}`
  const customer = await customerWithCard(TEST_CARDS.ok, { email: `${PREFIX}${tag}@example.test` })
  const profile = await profileFor(customer.user)
  const product = await productFor({ slug: `${PREFIX}${tag}` })
  const response = await client
    .post('/api/checkout/withprofile')
    .bearerToken(customer.token)
    .json({ productId: product.id, style: 'Black', size: '9.5', profileId: profile.publicId })
  response.assertStatus(201)
  return Order.findByOrFail('publicId', response.body().order.orderId)
}

const holdCalls = (orderId: number) =>
  db.from('payment_ledger').where('order_id', orderId).where('kind', 'hold').count('* as n')

const drivers: { name: string; make: () => QueueDriver; skip: boolean }[] = [
  { name: 'database', make: () => new InProcessDriver(), skip: false },
  {
    name: 'bullmq',
    make: () => new BullmqDriver(REDIS_URL, `dropslot-test-${process.pid}-${Date.now()}`),
    skip: !runBullmq,
  },
]

/** The warnings and errors the app logs about jobs, as an operator reads them, until restored. */
function jobLogs() {
  const entries: { level: 'warn' | 'error'; msg: string; job: unknown }[] = []
  for (const level of ['warn', 'error'] as const) {
    const original = logger[level].bind(logger)
    ;(logger as any)[level] = (details: unknown, message?: string) => {
      if (details && typeof details === 'object' && 'job' in details && message) {
        entries.push({ level, msg: message, job: details.job })
      }
      return (original as any)(details, message)
    }
  }
  return {
    of: (name: string) => entries.filter((entry) => entry.job === name),
    restore: () => {
      delete (logger as any).warn
      delete (logger as any).error
    },
  }
}

/*
| On committed data, not in one global transaction: the workers' jobs (five at a time per queue)
| and the test each use their own connections, so row locks and the money lock meet as they do in
| production, and no job's writes can vanish with another's savepoint. The driver is switched
| before any fixture is made, so no job of these tests waits in the other driver's queue.
*/
for (const driver of drivers) {
  test.group(`Jobs on the ${driver.name} driver`, (group) => {
    let current: QueueDriver
    let previous: QueueDriver
    const sink = new SmtpSink()

    group.setup(async () => {
      await sink.listen(SMTP_PORT)
      return () => sink.close()
    })
    group.each.setup(async () => {
      current = driver.make()
      previous = jobs.use(current)
      sink.received = []
      const removeCommittedData = await committedDataUnder(PREFIX)
      // Workers stop (running jobs finish) before what the test committed is removed.
      return async () => {
        await jobs.stop()
        if (current instanceof BullmqDriver) await current.obliterate()
        await jobs.close()
        jobs.use(previous)
        await removeCommittedData()
      }
    })

    test('a slot bought over HTTP gets its hold placed and its receipt sent by a job', async ({
      client,
      assert,
    }) => {
      await jobs.work({ schedules: false })
      const order = await buySlot(client)

      const placed = await waitFor(
        () => Order.findOrFail(order.id),
        (row) => row.holdStatus === 'placed'
      )
      assert.equal(placed.holdStatus, 'placed')
      const receipt = await waitFor(
        () => EmailMessage.query().where('order_id', order.id).firstOrFail(),
        (row) => row.status === 'sent'
      )
      assert.equal(receipt.status, 'sent')
      assert.lengthOf(
        sink.received.filter((mail) => mail.to.includes(order.email)),
        1
      )
    }).skip(driver.skip, 'Redis is not running on this machine')

    test('a hold job delivered three times places one hold', async ({ client, assert }) => {
      const order = await buySlot(client)
      await jobs.work({ queues: ['gateway'], schedules: false })
      // Delivered three times (no dedupe id: a redelivery), straight to the driver.
      await Promise.all([1, 2, 3].map(() => current.dispatch(placeHoldJob, { orderId: order.id })))

      await waitFor(
        () => Order.findOrFail(order.id),
        (row) => row.holdStatus === 'placed'
      )
      // Every delivery has run (none waiting or running on the gateway queue) before counting.
      const gateway = await waitFor(
        async () => {
          const queues = await jobs.status()
          return queues.find((queue) => queue.queue === 'gateway')
        },
        (queue) => !queue || (queue.waiting === 0 && queue.active === 0 && queue.delayed === 0)
      )
      assert.isTrue(!gateway || gateway.waiting + gateway.active + gateway.delayed === 0)
      const [{ n }] = await holdCalls(order.id)
      assert.equal(Number(n), 1)
      const after = await Order.findOrFail(order.id)
      assert.equal(after.holdAttempts, 1)
    }).skip(driver.skip, 'Redis is not running on this machine')

    test('work whose job was lost is found by the sweep', async ({ client, assert }) => {
      // Bought while no worker runs and the doorbell is lost: the hold waits in the table.
      const order = await buySlot(client)
      if (current instanceof BullmqDriver) await current.obliterate()
      const waiting = await Order.findOrFail(order.id)
      assert.equal(waiting.holdStatus, 'queued')

      await jobs.work({ schedules: false })
      await sweepHoldsJob.handle({})
      const placed = await waitFor(
        () => Order.findOrFail(order.id),
        (row) => row.holdStatus === 'placed'
      )
      assert.equal(placed.holdStatus, 'placed')
    }).skip(driver.skip, 'Redis is not running on this machine')

    test('a job that keeps failing is retried with back-off, then given up', async ({
      assert,
      cleanup,
    }) => {
      const tries: number[] = []
      const failing = defineJob<{ n: number }>({
        name: `test.always-fails-${driver.name}`,
        queue: 'maintenance',
        attempts: 2,
        async handle() {
          tries.push(Date.now())
          throw new Error('the gateway is down')
        },
      })
      jobRegistry.register(failing)
      const logs = jobLogs()
      cleanup(logs.restore)
      await jobs.work({ queues: ['maintenance'], schedules: false })
      await jobs.dispatch(failing, { n: 1 })

      // A worker that has just started (new Redis connections, its scripts loaded) may take a
      // while on a busy machine before the first try: the back-off is measured from that try.
      await waitFor(
        async () => tries.length,
        (count) => count >= 1
      )
      await waitFor(
        async () => tries.length,
        (count) => count >= 2
      )
      assert.lengthOf(tries, 2)
      assert.isAtLeast(tries[1] - tries[0], 900)
      const status = await waitFor(
        () => jobs.status(),
        (queues) => queues.find((queue) => queue.queue === 'maintenance')!.failed === 1
      )
      assert.equal(status.find((queue) => queue.queue === 'maintenance')!.failed, 1)
      // The attempt that was retried is a warning; only the job given up is an error.
      assert.deepEqual(
        logs.of(failing.name).map((entry) => `${entry.level}: ${entry.msg.split(';')[0]}`),
        ['warn: job attempt failed', 'error: job failed']
      )

      if (current instanceof BullmqDriver) {
        // Waits in the failed set, where an operator can retry it.
        const [failed] = await jobs.failed('maintenance')
        assert.equal(failed.name, failing.name)
        assert.include(failed.error, 'the gateway is down')
        assert.isTrue(await jobs.retry('maintenance', failed.id))
        await waitFor(
          async () => tries.length,
          (count) => count >= 3
        )
        assert.lengthOf(tries, 3)
      }
    }).skip(driver.skip, 'Redis is not running on this machine')

    test('a worker of the gateway queue alone places the holds a web process left', async ({
      client,
      assert,
    }) => {
      // Bought while this process works no queue (a web process with HOLD_WORKER_ENABLED=false):
      // the job's doorbell rings nowhere, and only the worker's own sweep can find the hold.
      const order = await buySlot(client)
      const waiting = await Order.findOrFail(order.id)
      assert.equal(waiting.holdStatus, 'queued')

      await jobs.work({ queues: ['gateway'], schedules: ['sweep-holds'] })
      const placed = await waitFor(
        () => Order.findOrFail(order.id),
        (row) => row.holdStatus === 'placed'
      )
      assert.equal(placed.holdStatus, 'placed')
      const [{ n }] = await holdCalls(order.id)
      assert.equal(Number(n), 1)
    }).skip(driver.name !== 'database', 'schedules of the embedded driver')

    test('a process that leaves the gateway queue to a worker never sweeps for holds', async ({
      assert,
    }) => {
      const runs = { holds: 0, outbox: 0 }
      const sweepHolds = sweepHoldsJob.handle
      const sweepOutbox = sweepOutboxJob.handle
      sweepHoldsJob.handle = (payload) => (runs.holds++, sweepHolds(payload))
      sweepOutboxJob.handle = (payload) => (runs.outbox++, sweepOutbox(payload))
      try {
        // The web process's queues with HOLD_WORKER_ENABLED=false (start/workers.ts).
        await jobs.work({
          queues: ['email', 'release', 'maintenance'],
          schedules: ['sweep-holds', 'sweep-outbox'],
        })
        // The outbox's sweep fires every 2 s, the holds' every second where it may fire at all.
        await waitFor(
          async () => runs.outbox,
          (count) => count >= 2
        )
        assert.isAtLeast(runs.outbox, 2)
        assert.equal(runs.holds, 0)
      } finally {
        sweepHoldsJob.handle = sweepHolds
        sweepOutboxJob.handle = sweepOutbox
      }
    }).skip(driver.name !== 'database', 'schedules of the embedded driver')
  })
}

test.group('Jobs on the bullmq driver: the cluster', (group) => {
  // Kept in one global transaction: the test reads only Redis (the schedulers), never what the
  // jobs write, so no lock or row needs to meet another connection. The schedules fire as soon
  // as they are upserted and their maintenance jobs act on the whole database (an alert check
  // writes the counters this process kept and may open incidents, the purges delete and rewrite
  // rows that were there before): rolled back, all of it is undone, deletions included, which a
  // cleanup of committed rows could not promise. Both workers are closed (their running jobs
  // finished) in the test, before the rollback.
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('schedules upserted by two workers fire from one scheduler each', async ({ assert }) => {
    const prefix = `dropslot-test-${process.pid}-${Date.now()}-schedules`
    const first = new BullmqDriver(REDIS_URL, prefix)
    const second = new BullmqDriver(REDIS_URL, prefix)
    try {
      const options = {
        queues: ['maintenance' as const],
        concurrency: 1,
        gatewayRatePerSecond: 20,
        schedules: true,
      }
      await first.start(options)
      await second.start(options)
      const ids = await first.schedulerIds()
      assert.isAbove(ids.length, 0)
      assert.deepEqual([...ids].sort(), jobRegistry.schedules.map((schedule) => schedule.id).sort())
    } finally {
      // No job is left running into the rollback, even when the obliteration fails.
      await Promise.all([first.stop(), second.stop()])
      try {
        await first.obliterate()
      } finally {
        await first.close()
        await second.close()
      }
    }
  }).skip(!runBullmq, 'Redis is not running on this machine')

  test('a job whose worker died is taken over by another worker after QUEUE_STALLED_AFTER_MS', async ({
    assert,
  }) => {
    const prefix = `dropslot-test-${process.pid}-${Date.now()}-stalled`
    const stalledAfterMs = 1000
    const dying = new BullmqDriver(REDIS_URL, prefix, stalledAfterMs)
    const survivor = new BullmqDriver(REDIS_URL, prefix, stalledAfterMs)
    const runs: string[] = []
    const takenOver = defineJob<{ n: number }>({
      name: 'test.taken-over',
      queue: 'maintenance',
      async handle() {
        runs.push(runs.length === 0 ? 'dying' : 'survivor')
        // The first run never ends: its worker dies under it.
        if (runs.length === 1) await new Promise(() => {})
      },
    })
    jobRegistry.register(takenOver)
    const options = {
      queues: ['maintenance' as const],
      concurrency: 1,
      gatewayRatePerSecond: 20,
      schedules: false,
    }
    try {
      await dying.start(options)
      await dying.dispatch(takenOver, { n: 1 })
      await waitFor(
        async () => runs.length,
        (count) => count === 1
      )
      // As a SIGKILL leaves it: the job still active in Redis, its lock no longer renewed.
      const workers = (dying as unknown as { workers: { close(force: boolean): Promise<void> }[] })
        .workers
      await Promise.all(workers.map((worker) => worker.close(true)))
      const diedAt = Date.now()
      await survivor.start(options)
      await waitFor(
        async () => runs.length,
        (count) => count === 2,
        10_000
      )
      assert.deepEqual(runs, ['dying', 'survivor'])
      // Within twice the setting (plus a busy machine's slack), not BullMQ's default 30 s.
      assert.isBelow(Date.now() - diedAt, 2 * stalledAfterMs + 5000)
    } finally {
      await survivor.stop()
      try {
        await survivor.obliterate()
      } finally {
        await survivor.close()
        await dying.close()
      }
    }
  }).skip(!runBullmq, 'Redis is not running on this machine')
})
