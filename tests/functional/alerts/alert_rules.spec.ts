import { test } from '@japa/runner'
import { releaseConfig } from '#release/services/release_config'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DateTime } from 'luxon'
import { Queue } from 'bullmq'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import alertsConfig from '#config/alerts'
import paymentsConfig from '#config/payments'
import queueConfig from '#config/queue'
import { BullmqDriver } from '#core/jobs/bullmq_driver'
import { defineJob, jobRegistry } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'
import type { QueueDriver } from '#core/jobs/queue_driver'
import { clock } from '#core/services/clock'
import { signals } from '#core/services/signals'
import { sqlTime } from '#core/helpers/sql_time'
import { checkAlertsJob } from '#alerts/jobs/alert_jobs'
import { ALERT_RULES } from '#alerts/rules/index'
import { mailDoors } from '#mail/services/mail_doors'
import { releaseRunner } from '#release/services/release_runner'
import { SimulatorEngine, WebhookEngine } from '#release/services/checkout_engines'
import { GatewayUnavailableError } from '#payments/gateways/payment_gateway'
import { SandboxGateway } from '#payments/gateways/sandbox_gateway'
import { signStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { useGateway } from '#payments/services/gateway'
import type { PaymentGateway } from '#payments/gateways/payment_gateway'
import { releasedProductWithOrders } from '#tests/support/release'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'
import { HttpSink, until } from '#tests/support/http_sink'
import { pendingOrder, placeHolds } from '#tests/helpers'
import { drawRunner } from '#draws/services/draw_runner'
import { drawProduct, startRecordedRelay } from '#tests/support/draws'
import { BEACON_DELAY_SECONDS, roundTime } from '#shared/draw'

const runBullmq = await redisTestsRun()
const CHECK_EVERY_MS = 1000
const OPS_EMAIL = 'ops-alerts@example.test'

/** A job nobody works on (no worker takes the `results` queue until the test says so). */
const waitingJob = defineJob<{ n: number }>({
  name: 'test.alerts-waits',
  queue: 'results',
  async handle() {
    return null
  },
})
/** A job that fails at once and waits in the failed set. */
const failingJob = defineJob<{ n: number }>({
  name: 'test.alerts-fails',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    throw new Error('the thing it talks to is down')
  },
})

/** The sandbox gateway, unreachable when a webhook is read back from it (a 503 for Stripe). */
class UnreachableSandbox extends SandboxGateway {
  async retrievePayment(): Promise<never> {
    throw new GatewayUnavailableError('api_connection_error', 'The payment service is down.')
  }
}

/** A URL nothing listens on (a bot that is down). */
async function closedUrl() {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}/tasks`
}

/** Which rule a webhook message is about (its last line names the rule). */
const ruleOf = (text: string) => /Rule (\w+)/.exec(text)?.[1] ?? '?'

test.group(
  'Alerts: every rule opens once and resolves once, checked once for the cluster',
  (group) => {
    const sink = new HttpSink()
    let previousDriver: QueueDriver
    let drivers: BullmqDriver[] = []
    let previousGateway: PaymentGateway | null = null
    const saved = { ...alertsConfig, thresholds: { ...alertsConfig.thresholds } }

    group.each.setup(async () => {
      const rollback = await testUtils.db().withGlobalTransaction()
      await sink.start()
      signals.discard()
      // Only this test's answers: every process counts into alert_counters, so answers an earlier
      // test committed in this minute would be summed with these (the rule sums the cluster's).
      await db.from('alert_counters').delete()
      alertsConfig.webhookUrl = sink.url('/hooks/alerts')
      alertsConfig.webhookFormat = 'slack'
      alertsConfig.email = OPS_EMAIL
      return async () => {
        for (const driver of drivers) await driver.stop()
        for (const driver of drivers) await driver.obliterate().catch(() => {})
        for (const driver of drivers) await driver.close()
        drivers = []
        if (previousDriver) jobs.use(previousDriver)
        if (previousGateway) useGateway(previousGateway)
        previousGateway = null
        Object.assign(alertsConfig, saved, { thresholds: { ...saved.thresholds } })
        // The check's schedule back to its configured interval for the tests that follow.
        jobRegistry.schedule({
          id: 'check-alerts',
          job: checkAlertsJob,
          everyMs: alertsConfig.checkEverySeconds * 1000,
        })
        signals.discard()
        await sink.stop()
        await rollback()
      }
    })

    test('with two workers: opened and resolved messages, one each per rule, and one e-mail each', async ({
      client,
      assert,
    }) => {
      // The world before the workers start (no job is dispatched yet: nothing runs them).
      const { product } = await releasedProductWithOrders(3)
      // A placed hold lapsing in two hours whose renewal was due 11 minutes ago.
      const lapsing = await pendingOrder()
      await placeHolds()
      await db
        .from('orders')
        .where('id', lapsing.order.id)
        .update({
          hold_expires_at: sqlTime(DateTime.now().plus({ hours: 2 })),
          hold_renew_at: sqlTime(DateTime.now().minus({ minutes: 11 })),
        })
      const waiting = await pendingOrder()
      await db
        .from('orders')
        .where('id', waiting.order.id)
        .update({ created_at: sqlTime(DateTime.now().minus({ minutes: 11 })) })

      // Two workers of one cluster, each firing the alert check's schedule.
      const prefix = `${queueConfig.prefix}-test-alerts-${process.pid}-${Date.now()}`
      jobRegistry.register(waitingJob, failingJob)
      jobRegistry.schedule({ id: 'check-alerts', job: checkAlertsJob, everyMs: CHECK_EVERY_MS })
      const dispatcher = new BullmqDriver(TEST_REDIS_URL, prefix)
      drivers.push(dispatcher)
      previousDriver = jobs.use(dispatcher)
      for (let index = 0; index < 2; index++) {
        const worker = new BullmqDriver(TEST_REDIS_URL, prefix)
        drivers.push(worker)
        await worker.start({
          queues: ['maintenance'],
          concurrency: 1,
          gatewayRatePerSecond: 20,
          schedules: ['check-alerts'],
        })
      }
      const schedulers = await dispatcher.schedulerIds()
      assert.deepEqual(
        schedulers.filter((id) => id === 'check-alerts'),
        ['check-alerts'],
        'one schedule for the cluster'
      )

      // 1. A release run against a bot that is down.
      const failedRun = await releaseRunner.run({
        productId: product.id,
        engine: new WebhookEngine({
          url: await closedUrl(),
          taskSecret: releaseConfig().webhook.taskSecret,
          attempts: 1,
          backoffMs: 10,
          timeoutMs: 2000,
        }),
      })
      assert.equal(failedRun.status, 'failed')
      // 2. A job that has waited 61 s in a queue nobody works on (its enqueue time is the input).
      const results = new Queue('results', {
        connection: { url: TEST_REDIS_URL },
        prefix,
      })
      await results.add(waitingJob.name, { n: 1 }, { timestamp: Date.now() - 61_000 })
      await results.close()
      // 3. A failed job.
      await jobs.dispatch(failingJob, { n: 1 })
      // 4. The waiting order above has no card check 11 minutes after it was placed, and the
      // other's hold lapses soon without its renewal.
      // 5. The gateway answers 429 (a sandbox allowing 1 request a second, asked 3 times).
      const limited = new SandboxGateway({
        ...paymentsConfig.sandbox,
        latencyMs: 0,
        requestsPerSecond: 1,
        webhookToleranceSeconds: 300,
      })
      const refusals = []
      for (let index = 0; index < 3; index++) {
        refusals.push(await limited.retrievePayment('pi_sbx_none').catch((error) => error))
      }
      assert.lengthOf(
        refusals.filter((error) => error instanceof GatewayUnavailableError),
        2,
        'two 429s'
      )
      // 6. A burst of webhooks with a bad signature, 7. and 5xx answers among the minute's.
      for (let index = 0; index < 5; index++) {
        const bad = await client
          .post('/api/hooks/stripe')
          .header('stripe-signature', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`)
          .json({ id: `evt_bad_${index}`, type: 'payment_intent.succeeded' })
        bad.assertStatus(400)
      }
      previousGateway = useGateway(
        new UnreachableSandbox({ ...paymentsConfig.sandbox, webhookToleranceSeconds: 300 })
      )
      for (let index = 0; index < 3; index++) {
        const payload = JSON.stringify({
          id: `evt_down_${Date.now()}_${index}`,
          object: 'event',
          type: 'payment_intent.succeeded',
          created: Math.floor(Date.now() / 1000),
          data: { object: { id: `pi_sbx_${'0'.repeat(24)}` } },
        })
        const down = await client
          .post('/api/hooks/stripe')
          .header('content-type', 'application/json')
          .header(
            'stripe-signature',
            signStripeStyleWebhook(payload, paymentsConfig.sandbox.webhookSecret)
          )
          .json(JSON.parse(payload))
        down.assertStatus(503)
      }
      // 8. The retailers' mailbox could not be read for 6 minutes.
      await mailDoors.failed('imap', new Error('Connection refused'))
      await db
        .from('mail_intake_state')
        .where('door', 'imap')
        .update({ failing_since: sqlTime(DateTime.now().minus({ minutes: 6 })) })
      // 9. A draw whose committed round (recorded quicknet round 657413) is long due, and no
      // relay to give it (DRAND_URLS=off).
      const closesAt = (roundTime(657413) - BEACON_DELAY_SECONDS) * 1000
      const draw = await drawProduct({
        entryOpensAt: DateTime.fromMillis(closesAt - 3_600_000),
        entryClosesAt: DateTime.fromMillis(closesAt),
      })
      const waited = await drawRunner.run(draw.id, { label: 'scheduler' }).catch((error) => error)
      assert.equal(waited.code, 'beacon_unavailable')
      for (let index = 0; index < 20; index++) {
        const ok = await client.get('/api/products')
        ok.assertStatus(200)
      }

      const opened = await until(
        async () => sink.received.filter((item) => item.json?.text?.startsWith('[ALERT]')),
        (items) => items.length >= ALERT_RULES.length,
        30_000
      )
      assert.sameMembers(
        opened.map((item) => ruleOf(item.json.text)),
        ALERT_RULES.map((rule) => rule.id),
        'one opening message per rule'
      )
      const failedRunMessage = opened.find(
        (item) => ruleOf(item.json.text) === 'release_run_failed'
      )!
      assert.include(failedRunMessage.json.text, `Release run #${failedRun.runId} failed`)
      assert.include(failedRunMessage.json.text, 'ECONNREFUSED')
      assert.include(
        opened.find((item) => ruleOf(item.json.text) === 'queue_backlog')!.json.text,
        'Queue results'
      )
      // The check may run while the answers still come in: it needs 20 of them to judge, and by
      // then the three 503s are among them.
      assert.match(
        opened.find((item) => ruleOf(item.json.text) === 'server_errors')!.json.text,
        /3 of 2\d answers were server errors/
      )

      // Now everything gets better: a worker takes the waiting queues, a good run, the failed job
      // discarded by an operator, the card check placed, and the counted minutes pass.
      const helper = new BullmqDriver(TEST_REDIS_URL, prefix)
      drivers.push(helper)
      await helper.start({
        queues: ['results', 'gateway', 'email'],
        concurrency: 2,
        gatewayRatePerSecond: 20,
        schedules: false,
      })
      const goodRun = await releaseRunner.run({
        productId: product.id,
        engine: new SimulatorEngine({ successRate: 1, seed: 'alerts', delayMs: 0 }),
      })
      assert.equal(goodRun.status, 'finished')
      const [failed] = await dispatcher.failed('maintenance', 5)
      assert.equal(failed.name, failingJob.name)
      assert.isTrue(await dispatcher.discard('maintenance', failed.id))
      await placeHolds()
      await mailDoors.ok('imap')
      const relay = await startRecordedRelay()
      await drawRunner.run(draw.id, { label: 'scheduler' }).finally(() => relay.close())
      useGateway(previousGateway!)
      previousGateway = null
      const renewed = await db.from('orders').where('id', lapsing.order.id).first()
      assert.equal(renewed.hold_round, 2, 'the lapsing hold renewed by the hold worker')
      await until(
        () => dispatcher.status(),
        (queues) =>
          queues
            .filter((queue) => ['results', 'gateway'].includes(queue.queue))
            .every((queue) => queue.waiting + queue.active === 0)
      )
      clock.travel(3 * 60_000)

      const resolved = await until(
        async () => sink.received.filter((item) => item.json?.text?.startsWith('[RESOLVED]')),
        (items) => items.length >= ALERT_RULES.length,
        30_000
      )
      assert.sameMembers(
        resolved.map((item) => ruleOf(item.json.text)),
        ALERT_RULES.map((rule) => rule.id),
        'one resolution message per rule'
      )

      // Three more checks change nothing: nothing is sent twice.
      const maintenance = new Queue('maintenance', { connection: { url: TEST_REDIS_URL }, prefix })
      const checksRun = async () => {
        const counts = await maintenance.getJobCounts('completed')
        return counts.completed ?? 0
      }
      const before = await checksRun()
      await until(checksRun, (count) => count >= before + 3)
      await maintenance.close()
      assert.lengthOf(sink.received, 2 * ALERT_RULES.length)
      const incidents = await db.from('incidents').orderBy('id')
      assert.lengthOf(incidents, ALERT_RULES.length)
      assert.deepEqual([...new Set(incidents.map((row) => row.status))], ['resolved'])
      const emails = await db
        .from('email_messages')
        .where('to_address', OPS_EMAIL)
        .select('template', 'dedupe_key')
      assert.lengthOf(emails, 2 * ALERT_RULES.length)
      for (const incident of incidents) {
        const keys = emails.map((email) => email.dedupe_key)
        assert.include(keys, `incident:${incident.id}:opened`)
        assert.include(keys, `incident:${incident.id}:resolved`)
      }
    })
      .skip(!runBullmq, 'Redis is not running on this machine')
      .timeout(90_000)
  }
)
