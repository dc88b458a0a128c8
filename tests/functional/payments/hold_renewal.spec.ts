import { test } from '@japa/runner'
import { clearRateLimits } from '#tests/support/rate_limits'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import Product from '#catalog/models/product'
import { clock } from '#core/services/clock'
import { envelope } from '#tests/helpers'
import { BullmqDriver } from '#core/jobs/bullmq_driver'
import { InProcessDriver } from '#core/jobs/in_process_driver'
import { jobs } from '#core/jobs/jobs'
import type { QueueDriver } from '#core/jobs/queue_driver'
import { sweepHoldsJob } from '#payments/jobs/hold_jobs'
import { holdWorker } from '#payments/services/hold_worker'
import { ledger } from '#payments/services/ledger'
import { keysOf } from '#payments/services/payment_service'
import { sandboxChallenges } from '#payments/gateways/sandbox_gateway'
import { gateway } from '#payments/services/gateway'
import { signStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import paymentsConfig from '#config/payments'
import { releaseRunner } from '#release/services/release_runner'
import { SimulatorEngine } from '#release/services/checkout_engines'
import { holdCoverage } from '#orders/services/hold_coverage'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'
import { DRAW_CARDS, drawProduct, drawProfileData } from '#tests/support/draws'
import { committedDataUnder } from '#tests/support/release'
import { waitFor } from '#tests/support/wait_for'
import {
  adminWithToken,
  customerWithCard,
  pendingOrder,
  placeHolds,
  productFor,
  profileFor,
  saveCardFor,
  staffWithToken,
  TEST_CARDS,
} from '#tests/helpers'

const HOUR = 3_600_000
const runBullmq = await redisTestsRun()

const intentOf = (id: string) => db.from('sandbox_payment_intents').where('id', id).first()
const emailsOf = (orderId: number, template: string) =>
  db.from('email_messages').where('order_id', orderId).where('template', template)
const renewalsOf = (orderId: number) =>
  db.from('order_events').where('order_id', orderId).where('kind', 'hold_renewed')
const holdRows = (orderId: number) =>
  db.from('payment_ledger').where('order_id', orderId).where('kind', 'hold').orderBy('id')

/** Whole seconds apart at most (the database keeps whole seconds). */
function near(assert: any, actual: DateTime | null | undefined, expected: DateTime, ms = 5000) {
  assert.isNotNull(actual ?? null)
  assert.isAtMost(Math.abs(actual!.toMillis() - expected.toMillis()), ms)
}

async function dashboardHolds(client: any, token: string) {
  const response = await client.get('/api/admin/dashboard').bearerToken(token)
  response.assertStatus(200)
  return response.body().holds
}

/** The customer replaces their card from the account page (genToken, then billing/set). */
async function replaceCard(client: any, token: string, number: string) {
  const generated = await client
    .post('/api/user/billing/genToken')
    .bearerToken(token)
    .json({
      encrypted: envelope({
        name: 'Test Customer',
        number,
        exp_month: 12,
        exp_year: DateTime.now().year + 2,
        cvc: '123',
        address_zip: '12345',
      }),
    })
  generated.assertStatus(200)
  return client
    .post('/api/user/billing/set')
    .bearerToken(token)
    .json({
      billingAddress: {
        address1: '1 Main St',
        city: 'Springfield',
        zip: '12345',
        state: 'IL',
        country: 'US',
      },
      token: generated.body().id,
    })
}

test.group('Holds that never lapse in silence', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('every placed hold knows when its authorization lapses, as the gateway says', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order } = await pendingOrder()
    const placedAt = DateTime.now()
    await placeHolds()
    await order.refresh()
    const intent = await intentOf(order.holdPaymentId!)
    const lapses = DateTime.fromJSDate(
      intent.capture_before instanceof Date
        ? intent.capture_before
        : new Date(`${String(intent.capture_before).replace(' ', 'T')}Z`)
    )
    near(assert, lapses, placedAt.plus({ hours: 168 }))
    near(assert, order.holdExpiresAt, lapses, 1000)
    // Renewed a day before it lapses.
    near(assert, order.holdRenewAt, lapses.minus({ hours: 24 }), 1000)
    const shown = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    assert.equal(shown.body().holdExpiresAt, order.holdExpiresAt!.toUTC().toISO())
  })

  test('a waiting order’s hold is renewed once before it lapses: a new round, the old released', async ({
    assert,
  }) => {
    const { order, product } = await pendingOrder({ product: { priceCents: 2000 } })
    await placeHolds()
    await order.refresh()
    const first = order.holdPaymentId!
    // Six days and one hour on: within a day of the hold lapsing.
    clock.travel(145 * HOUR)
    const report = await holdWorker.runOnce()
    assert.equal(report.renewed, 1)
    await order.refresh()
    assert.equal(order.status, 'pending')
    assert.equal(order.holdStatus, 'placed')
    assert.equal(order.holdRound, 2)
    assert.notEqual(order.holdPaymentId, first)
    near(assert, order.holdExpiresAt, DateTime.now().plus({ hours: 168 }))
    assert.include(await intentOf(first), { status: 'canceled', cancellation_reason: 'abandoned' })
    assert.include(await intentOf(order.holdPaymentId!), { status: 'requires_capture' })
    const rows = await db.from('payment_ledger').where('order_id', order.id).orderBy('id')
    assert.deepEqual(
      rows.map((row) => [row.kind, row.status, row.idempotency_key]),
      [
        ['hold', 'succeeded', keysOf('hold', order, 1).key],
        ['hold', 'succeeded', keysOf('hold', order, 2).key],
        ['hold_release', 'succeeded', keysOf('holdRelease', order, 1).key],
      ]
    )
    const [line] = await renewalsOf(order.id)
    assert.include(line.note, 'renewed before it lapsed')

    // Renewed once: the next sweeps find nothing due.
    const next = await holdWorker.runOnce()
    assert.equal(next.renewed, 0)
    clock.travel(HOUR)
    const later = await holdWorker.runOnce()
    assert.equal(later.renewed, 0)
    assert.lengthOf(await holdRows(order.id), 2)
    assert.lengthOf(await renewalsOf(order.id), 1)

    // Release day goes on as ever; the renewed hold is released, none is left open.
    await Product.query()
      .where('id', product.id)
      .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
    await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 1, delayMs: 0, seed: 'renewed' }),
    })
    await order.refresh()
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'paid')
    assert.equal(order.holdStatus, 'released')
    const holds = await db
      .from('sandbox_payment_intents')
      .whereIn('id', [first, order.holdPaymentId!])
      .select('status')
    assert.deepEqual(
      holds.map((row) => row.status),
      ['canceled', 'canceled']
    )
  })

  test('a renewal the bank declines cancels the order as a declined hold', async ({
    client,
    assert,
  }) => {
    const { order, product, token } = await pendingOrder()
    await placeHolds()
    await order.refresh()
    const first = order.holdPaymentId!
    const { stockTaken: taken } = await Product.findOrFail(product.id)
    // The customer's new card is refused for every payment.
    const replaced = await replaceCard(client, token, TEST_CARDS.declinesCharges)
    replaced.assertStatus(200)
    clock.travel(145 * HOUR)
    const report = await holdWorker.runOnce()
    assert.equal(report.declined, 1)

    await order.refresh()
    assert.equal(order.status, 'cancelled')
    assert.equal(order.failReason, 'hold_declined:generic_decline')
    const { stockTaken } = await Product.findOrFail(product.id)
    assert.equal(stockTaken, taken - 1)
    const mails = await emailsOf(order.id, 'hold_declined')
    assert.lengthOf(mails, 1)
    assert.include(mails[0].text_body, 'declined')
    // The old hold is released, never left to lapse; the declined round is in the ledger.
    assert.include(await intentOf(first), { status: 'canceled' })
    assert.equal((await ledger.find(keysOf('hold', order, 2)))!.status, 'failed')
    const shown = await client.get('/api/user/orders').bearerToken(token)
    const mine = shown.body().find((row: any) => row.orderId === order.publicId)
    assert.equal(mine.status, 'cancelled')
  })

  test('a renewal that needs 3-D Secure waits for the customer while the old hold lives', async ({
    client,
    assert,
  }) => {
    const { order, user, token } = await pendingOrder()
    await placeHolds()
    await order.refresh()
    const first = order.holdPaymentId!
    const lapses = order.holdExpiresAt!
    await saveCardFor(user, TEST_CARDS.needsAuthentication)
    clock.travel(145 * HOUR)
    const before = await holdCoverage()
    const asking = await holdWorker.runOnce()
    assert.equal(asking.waiting, 1)

    await order.refresh()
    assert.equal(order.holdStatus, 'requires_action')
    assert.equal(order.holdRound, 2)
    near(assert, order.holdNextAttemptAt, lapses, 1000)
    assert.include(await intentOf(first), { status: 'requires_capture' })
    assert.lengthOf(await emailsOf(order.id, 'hold_needs_confirmation'), 1)
    // Still covered: the old hold lives until the customer confirms the new one.
    const during = await holdCoverage()
    assert.equal(during.waitingWithoutLiveHold, before.waitingWithoutLiveHold)

    // A late notice about the old hold (still awaiting capture) does not put the order back on it.
    const payload = JSON.stringify({
      id: `evt_old_round_${order.id}`,
      object: 'event',
      type: 'payment_intent.amount_capturable_updated',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: first, object: 'payment_intent', status: 'requires_capture' } },
    })
    const notice = await client
      .post('/api/hooks/stripe')
      .unsafeJson(payload)
      .header(
        'stripe-signature',
        signStripeStyleWebhook(payload, paymentsConfig.sandbox.webhookSecret)
      )
    notice.assertBodyContains({ outcome: 'hold_superseded' })
    await order.refresh()
    assert.equal(order.holdStatus, 'requires_action')

    const asked = await client
      .post(`/api/user/orders/${order.publicId}/hold/authenticate`)
      .bearerToken(token)
    asked.assertStatus(200)
    await sandboxChallenges.answer(asked.body().authentication.paymentId, true)
    const confirmed = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    confirmed.assertStatus(200)
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    assert.equal(order.holdRound, 2)
    near(assert, order.holdExpiresAt, DateTime.now().plus({ hours: 168 }))
    // Now the old one goes.
    assert.include(await intentOf(first), { status: 'canceled' })
  })

  test('a draw entry’s hold is renewed too', async ({ client, assert }) => {
    const product = await drawProduct({ entryClosesAt: DateTime.now().plus({ days: 10 }) })
    const customer = await customerWithCard()
    const profile = await profileFor(customer.user, drawProfileData(0, DRAW_CARDS[0], '1 Way'))
    const entered = await client
      .post('/api/checkout/withprofile')
      .bearerToken(customer.token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
    entered.assertStatus(201)
    await placeHolds()
    const order = await Order.findByOrFail('publicId', entered.body().order.orderId)
    assert.equal(order.status, 'entered')
    clock.travel(170 * HOUR)
    const report = await holdWorker.runOnce()
    assert.equal(report.renewed, 1)
    await order.refresh()
    assert.equal(order.status, 'entered')
    assert.equal(order.holdStatus, 'placed')
    assert.equal(order.holdRound, 2)
  })

  test('the dashboard counts waiting orders without a live hold and holds lapsing within 24 h', async ({
    client,
    assert,
  }) => {
    // A staff session idles out after 15 minutes: each look is a fresh sign-in, as it would be.
    const dashboardNow = async () => {
      const { token } = await adminWithToken()
      return dashboardHolds(client, token)
    }
    const baseline = await dashboardNow()
    const orders = []
    for (let index = 0; index < 2; index++) {
      const { order } = await pendingOrder()
      orders.push(order)
    }
    await placeHolds()

    clock.travel(150 * HOUR)
    await clearRateLimits()
    const soon = await dashboardNow()
    assert.equal(soon.expiringWithin24h, baseline.expiringWithin24h + 2)
    assert.equal(soon.waitingWithoutLiveHold, baseline.waitingWithoutLiveHold)

    // Past the lapse with no renewal run yet: counted, by what happened to them.
    clock.travel(20 * HOUR)
    const lapsed = await dashboardNow()
    assert.equal(lapsed.waitingWithoutLiveHold, baseline.waitingWithoutLiveHold + 2)
    assert.equal(
      lapsed.withoutLiveHoldByStatus.lapsed,
      (baseline.withoutLiveHoldByStatus.lapsed ?? 0) + 2
    )

    const sweep = await holdWorker.runOnce()
    assert.equal(sweep.renewed, 2)
    const renewed = await dashboardNow()
    assert.equal(renewed.waitingWithoutLiveHold, baseline.waitingWithoutLiveHold)
    assert.equal(renewed.expiringWithin24h, baseline.expiringWithin24h)
    assert.equal(renewed.renewals.last24h, baseline.renewals.last24h + 2)
    const numbers = renewed.renewals.recent.map((row: any) => row.orderId)
    for (const order of orders) assert.include(numbers, order.publicId)
    assert.equal(renewed.renewals.recent[0].round, 2)
  })
})

const drivers: { name: string; make: () => QueueDriver; skip: boolean }[] = [
  { name: 'database', make: () => new InProcessDriver(), skip: false },
  {
    name: 'bullmq',
    make: () => new BullmqDriver(TEST_REDIS_URL, `dropslot-test-${process.pid}-${Date.now()}`),
    skip: !runBullmq,
  },
]

/** The staff, customers (by e-mail) and products (by slug) the worker tests commit: theirs. */
const PREFIX = 'holdrenw-'
const tag = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

/**
 * How long to wait for what a worker's job writes: above the money lock's wait (15 s) and a
 * job's retry back-off, so a job that had to wait its turn still counts.
 */
const JOB_WAIT_MS = 25_000

/** Nothing left to run on the gateway queue: every job dispatched so far has finished. */
async function gatewayQueueIdle() {
  const statuses = await jobs.status()
  const gatewayQueue = statuses.find((status) => status.queue === 'gateway')
  return (
    gatewayQueue !== undefined &&
    gatewayQueue.waiting + gatewayQueue.active + gatewayQueue.delayed === 0
  )
}

/*
| On committed data, not in one global transaction: the workers' jobs and the test each use
| their own connections, so row locks and the money lock meet as they do in production, and no
| job's writes can vanish with another's savepoint. The driver is switched before any fixture
| is made, so no job of these tests waits in the other driver's queue.
*/
for (const driver of drivers) {
  test.group(`Hold renewal on the ${driver.name} driver`, (group) => {
    let current: QueueDriver
    let previous: QueueDriver
    group.each.setup(async () => {
      current = driver.make()
      previous = jobs.use(current)
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

    test('a hold moved past its expiry on the test clock is renewed once by the sweep', async ({
      client,
      assert,
    }) => {
      // A staff session idles out after 15 minutes: each look is a fresh sign-in.
      const dashboardNow = async () => {
        const { token: admin } = await staffWithToken('owner', {
          email: `${PREFIX}admin-${tag()}@example.test`,
        })
        return dashboardHolds(client, admin)
      }
      const baseline = await dashboardNow()
      await jobs.work({ queues: ['gateway'], schedules: false })
      const { user, token } = await customerWithCard(TEST_CARDS.ok, {
        email: `${PREFIX}${tag()}@example.test`,
      })
      const profile = await profileFor(user)
      const product = await productFor({ slug: `${PREFIX}${tag()}` })
      const bought = await client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({ productId: product.id, style: 'Black', size: '9.5', profileId: profile.publicId })
      bought.assertStatus(201)
      const order = await Order.findByOrFail('publicId', bought.body().order.orderId)
      const placed = await waitFor(
        async () => {
          const row = await Order.findOrFail(order.id)
          return row.holdStatus === 'placed' && row
        },
        { what: 'the hold to be placed', timeoutMs: JOB_WAIT_MS }
      )
      const first = placed.holdPaymentId!

      clock.travel(169 * HOUR)
      // The provider let it lapse: the dashboard shows a waiting order without a live hold.
      const reported = await gateway().retrievePayment(first)
      assert.include(reported, { status: 'canceled', cancellationReason: 'automatic' })
      const lapsed = await dashboardNow()
      assert.equal(lapsed.waitingWithoutLiveHold, baseline.waitingWithoutLiveHold + 1)

      // The scheduler's sweep, three times over: one renewal job, one new round.
      for (let sweep = 0; sweep < 3; sweep++) {
        await sweepHoldsJob.handle({})
        await waitFor(
          async () => {
            const row = await Order.findOrFail(order.id)
            return row.holdRound === 2 && row.holdStatus === 'placed'
          },
          { what: 'the hold renewed to round 2', timeoutMs: JOB_WAIT_MS }
        )
      }
      // Every renewal the sweeps dispatched has run (a second one would show as a third round).
      await waitFor(gatewayQueueIdle, {
        what: 'the gateway queue to be idle',
        timeoutMs: JOB_WAIT_MS,
      })
      const renewed = await Order.findOrFail(order.id)
      assert.equal(renewed.holdRound, 2)
      assert.equal(renewed.holdStatus, 'placed')
      assert.equal(renewed.status, 'pending')
      assert.include(await intentOf(renewed.holdPaymentId!), { status: 'requires_capture' })
      assert.lengthOf(await holdRows(order.id), 2)
      assert.lengthOf(await renewalsOf(order.id), 1)
      const [line] = await renewalsOf(order.id)
      assert.include(line.note, 'lapsed')
      const holds = await dashboardNow()
      assert.equal(holds.waitingWithoutLiveHold, baseline.waitingWithoutLiveHold)
      assert.equal(holds.renewals.total, baseline.renewals.total + 1)
    }).skip(driver.skip, 'Redis is not running on this machine')
  })
}
