import { test } from '@japa/runner'
import { spawn, type ChildProcess } from 'node:child_process'
import { Queue } from 'bullmq'
import { Redis } from 'ioredis'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import { BullmqDriver } from '#core/jobs/bullmq_driver'
import { placeHoldJob } from '#payments/jobs/hold_jobs'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { cliEntry, cliEnv, runCli } from '#tests/support/cli'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'
import { customerWithCard, productFor, profileFor, TEST_CARDS } from '#tests/helpers'

const REDIS_URL = TEST_REDIS_URL
const PREFIX = 'cliq-'
const runBullmq = await redisTestsRun()

const holdStatusOf = async (id: number) => {
  const order = await Order.findOrFail(id)
  return order.holdStatus
}

/** The order's hold as this process and the gateway queue see it, for a failure's message. */
async function holdDiagnosis(orderId: number, prefix: string) {
  const order = await db
    .from('orders')
    .where('id', orderId)
    .select('hold_status', 'hold_attempts', 'hold_next_attempt_at', 'hold_claimed_at', 'status')
    .first()
  const connection = new Redis(REDIS_URL)
  const queue = new Queue('gateway', { connection, prefix })
  try {
    const jobs = await queue.getJobs()
    const states = await Promise.all(
      jobs.map(async (job) => ({
        id: job.id,
        state: await job.getState(),
        attemptsMade: job.attemptsMade,
        failedReason: job.failedReason,
        returnvalue: job.returnvalue,
      }))
    )
    // Every key of the prefix, with its type and size: a job that left no trace shows here.
    const keys = await connection.keys(`${prefix}:*`)
    const sizeCommands = {
      list: 'llen',
      zset: 'zcard',
      hash: 'hlen',
      set: 'scard',
      stream: 'xlen',
    } as const
    const sizes = await Promise.all(
      keys.sort().map(async (key) => {
        const type = await connection.type(key)
        const command = sizeCommands[type as keyof typeof sizeCommands]
        const size = command ? await connection[command](key) : 1
        return `${key.slice(prefix.length + 1)} ${type} ${size}`
      })
    )
    return `order: ${JSON.stringify(order)}\njobs: ${JSON.stringify(states)}\nkeys: ${sizes.join(', ')}`
  } finally {
    await queue.close()
    await connection.quit()
  }
}

/** A committed order with its hold still queued (the worker process must see it). */
async function orderWaitingForItsHold() {
  const { checkoutService } = await import('#checkout/services/checkout_service')
  const customer = await customerWithCard(TEST_CARDS.ok, {
    email: `${PREFIX}${Date.now().toString(36)}@example.test`,
  })
  const profile = await profileFor(customer.user)
  const product = await productFor()
  const opened = await checkoutService.checkout(customer.user, {
    productId: product.id,
    style: 'Black',
    size: '9',
    profileId: profile.publicId,
  })
  return Order.findOrFail(opened.id)
}

/** `dropslot worker` of the gateway queue from the build, logging at info (a failure says why). */
async function startGatewayWorker(env: Record<string, string>) {
  const worker = spawn(process.execPath, [await cliEntry(), 'worker', '--queues', 'gateway'], {
    env: cliEnv({ LOG_LEVEL: 'info', ...env }),
  })
  const output = { stderr: '', stdout: '' }
  worker.stderr.on('data', (chunk) => (output.stderr += chunk))
  worker.stdout.on('data', (chunk) => (output.stdout += chunk))
  const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve))
  return { worker, output, exited }
}

/** Kills what a worker test left running and removes its queues. */
async function cleanUpWorker(worker: ChildProcess, dispatcher: BullmqDriver) {
  worker.kill('SIGKILL')
  await dispatcher.obliterate()
  await dispatcher.close()
}

test.group('CLI: workers and queues', (group) => {
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    await removeCommittedReleaseData(PREFIX)
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await removeCommittedReleaseData(PREFIX)
    await restoreSandbox()
  })

  test('bad worker flags exit 2; queues:status shows the work due in the tables', async ({
    assert,
  }) => {
    const badQueue = await runCli(['worker', '--queues', 'gateway,nope'])
    assert.equal(badQueue.code, 2)
    assert.include(
      badQueue.stderr,
      '--queues takes names from: gateway, email, release, results, maintenance'
    )
    const badConcurrency = await runCli(['worker', '--concurrency', '0'])
    assert.equal(badConcurrency.code, 2)

    const order = await orderWaitingForItsHold()
    const status = await runCli(['--json', 'queues:status'])
    assert.equal(status.code, 0, status.stderr)
    assert.equal(status.json.driver, 'database')
    assert.isAtLeast(status.json.backlog.holds.due, 1)
    assert.equal(await holdStatusOf(order.id), 'queued')
  })

  test('a BullMQ worker process runs a dispatched hold job and stops cleanly on SIGTERM', async ({
    assert,
  }) => {
    const prefix = `dropslot-test-cli-${process.pid}-${Date.now()}`
    const workerEnv = { QUEUE_DRIVER: 'bullmq', REDIS_URL, QUEUE_PREFIX: prefix }
    const order = await orderWaitingForItsHold()
    const { worker, output, exited } = await startGatewayWorker(workerEnv)
    const dispatcher = new BullmqDriver(REDIS_URL, prefix)
    try {
      await dispatcher.dispatch(placeHoldJob, { orderId: order.id })
      // Generous: a worker starting from source on a busy machine takes a while to boot.
      const until = Date.now() + 45_000
      // The worker takes jobs before it prints its start line, so the hold may be placed first.
      const started = () => output.stderr.includes('worker started: driver bullmq, queues gateway')
      while (((await holdStatusOf(order.id)) !== 'placed' || !started()) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      if ((await holdStatusOf(order.id)) !== 'placed') {
        assert.fail(
          `the hold was not placed within 45 s\n${await holdDiagnosis(order.id, prefix)}\n` +
            `worker stderr:\n${output.stderr}\nworker stdout:\n${output.stdout}`
        )
      }
      assert.isTrue(started(), output.stderr)

      const status = await runCli(['--json', 'queues:status'], workerEnv)
      assert.equal(status.code, 0, status.stderr)
      const gateway = status.json.queues.find((queue: any) => queue.queue === 'gateway')
      assert.include(gateway, { waiting: 0, failed: 0 })

      worker.kill('SIGTERM')
      assert.equal(await exited, 0)
      assert.include(output.stderr, 'worker stopped')
    } finally {
      await cleanUpWorker(worker, dispatcher)
    }
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(90_000)

  test('a worker stopped on SIGTERM with a hold in flight finishes it, then exits at once', async ({
    assert,
  }) => {
    const prefix = `dropslot-test-cli-term-${process.pid}-${Date.now()}`
    // Each gateway call takes 3 s, so the hold is in flight when the signal comes.
    const workerEnv = {
      QUEUE_DRIVER: 'bullmq',
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      SANDBOX_LATENCY_MS: '3000',
    }
    const order = await orderWaitingForItsHold()
    const { worker, output, exited } = await startGatewayWorker(workerEnv)
    const dispatcher = new BullmqDriver(REDIS_URL, prefix)
    try {
      await dispatcher.dispatch(placeHoldJob, { orderId: order.id })
      const until = Date.now() + 45_000
      while ((await holdStatusOf(order.id)) !== 'placing' && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.equal(await holdStatusOf(order.id), 'placing', output.stderr)

      worker.kill('SIGTERM')
      // It does not linger: not on connections opened after the app had closed its own. The
      // ceiling is cleared once it exits, so no timer outlives the test.
      let ceiling: NodeJS.Timeout | undefined
      const code = await Promise.race([
        exited,
        new Promise((resolve) => {
          ceiling = setTimeout(() => resolve('still running after 15 s'), 15_000)
        }),
      ])
      clearTimeout(ceiling)
      assert.equal(code, 0, output.stderr)
      assert.include(output.stderr, 'worker stopped')
      // The running job finished on the database and Redis it started with.
      assert.equal(await holdStatusOf(order.id), 'placed', output.stderr)
      const logs = `${output.stderr}${output.stdout}`
      assert.notMatch(logs, /\b(ERROR|FATAL)\b|"level":(50|60)/, `an error was logged:\n${logs}`)
    } finally {
      await cleanUpWorker(worker, dispatcher)
    }
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(90_000)

  test('a release run on BullMQ hands its results to the queue and exits', async ({ assert }) => {
    const prefix = `dropslot-test-clirun-${process.pid}-${Date.now()}`
    const bullmqEnv = { QUEUE_DRIVER: 'bullmq', REDIS_URL, QUEUE_PREFIX: prefix }
    const { product } = await releasedProductWithOrders(1, { emailPrefix: PREFIX })
    const driver = new BullmqDriver(REDIS_URL, prefix)
    try {
      const started = Date.now()
      const run = await runCli(
        ['--json', 'release:run', '--product', String(product.id), '--engine', 'simulator'],
        bullmqEnv
      )
      assert.equal(run.code, 0, run.stderr)
      assert.equal(run.json.submitted, 1, `${run.stdout}\n${run.stderr}`)
      assert.equal(run.json.settling, 1)
      // It did not wait for its Redis connections to time out.
      assert.isBelow(Date.now() - started, 30_000)
    } finally {
      await driver.obliterate()
      await driver.close()
    }
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(150_000)
})
