import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import {
  CardDeclinedError,
  GatewayRequestError,
  GatewayUnavailableError,
  isCardSetupAction,
} from '#payments/gateways/payment_gateway'
import {
  sandboxRefusalsKey,
  sharedSandboxBudget,
  takeGatewayBudget,
  GATEWAY_SECOND_GUARD_MS,
} from '#payments/services/gateway'
import { redisTestsRun } from '#tests/support/redis'
import { SandboxGateway } from '#payments/gateways/sandbox_gateway'
import { clock } from '#core/services/clock'

const withRedis = await redisTestsRun()

const sandbox = (requestsPerSecond = 1000) =>
  new SandboxGateway({
    latencyMs: 0,
    requestsPerSecond,
    webhookSecret: 'whsec_test',
    webhookToleranceSeconds: 300,
  })

/** A name no other test or suite uses, for keys and e-mails: rows are told apart by it. */
const unique = () =>
  `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

async function savedCard(
  gateway: SandboxGateway,
  number: string,
  key = `save:${number}`,
  email = 'sandbox@example.test'
) {
  const token = await gateway.createCardToken({
    number,
    expMonth: 12,
    expYear: DateTime.now().year + 2,
    cvc: '123',
  })
  const saved = await gateway.saveCard({
    customerId: null,
    email,
    name: 'Sandbox',
    reference: 'ref',
    token: token.id,
    idempotencyKey: `${key}:${token.id}`,
  })
  if (isCardSetupAction(saved)) throw new Error('This card asks for authentication when saved.')
  return saved
}

test.group('Sandbox gateway', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the same idempotency key returns the same payment, never a second one', async ({
    assert,
  }) => {
    const gateway = sandbox()
    const card = await savedCard(gateway, '4242424242424242')
    const request = {
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      amountCents: 100,
      metadata: { purpose: 'hold' },
      idempotencyKey: `test-${unique()}-hold`,
    }
    const first = await gateway.placeHold(request)
    const again = await gateway.placeHold(request)
    assert.deepEqual(again, first)
    assert.lengthOf(
      await db.from('sandbox_payment_intents').where('customer_id', card.customerId),
      1
    )

    // A key reused for another operation is refused, as Stripe does.
    await assert.rejects(
      () => gateway.chargeFee({ ...request, description: 'fee' }),
      GatewayRequestError
    )
  })

  test('declines are replayed for the same key, with Stripe’s codes', async ({ assert }) => {
    const gateway = sandbox()
    const card = await savedCard(gateway, '4000000000000341')
    const request = {
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      amountCents: 2500,
      description: 'fee',
      metadata: {},
      idempotencyKey: `test-${unique()}-fee`,
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await gateway.chargeFee(request)
        assert.fail('expected a decline')
      } catch (error) {
        assert.instanceOf(error, CardDeclinedError)
        assert.include(error as CardDeclinedError, {
          code: 'card_declined',
          declineCode: 'generic_decline',
        })
      }
    }
    // Kept once, as the provider keeps it: awaiting another payment method, with its error.
    const intents = await db.from('sandbox_payment_intents').where('customer_id', card.customerId)
    assert.lengthOf(intents, 1)
    assert.include(await gateway.retrievePayment(intents[0].id), {
      status: 'requires_payment_method',
      amountCents: 2500,
      amountRefundedCents: 0,
    })
    assert.deepEqual((await gateway.retrievePayment(intents[0].id))!.lastError, {
      code: 'card_declined',
      declineCode: 'generic_decline',
      message: 'Your card was declined.',
    })
    assert.isNull(await gateway.retrievePayment('pi_never_made'))
    assert.isNull(await gateway.retrieveRefund('re_never_made'))
  })

  test('test cards that fail when saved', async ({ assert }) => {
    const gateway = sandbox()
    const email = `declined-${unique()}@example.test`
    for (const [number, code, declineCode] of [
      ['4000000000000002', 'card_declined', 'generic_decline'],
      ['4000000000009995', 'card_declined', 'insufficient_funds'],
      ['4000000000000069', 'expired_card', null],
      ['4000000000000127', 'incorrect_cvc', null],
    ] as const) {
      try {
        await savedCard(gateway, number, `save:${number}:${unique()}`, email)
        assert.fail(`expected ${number} to be declined`)
      } catch (error) {
        assert.instanceOf(error, CardDeclinedError)
        assert.include(error as CardDeclinedError, { code, declineCode })
      }
    }
    // No card was kept for this customer, whatever the gateway created for them.
    const kept = await db
      .from('sandbox_payment_methods')
      .join('sandbox_customers', 'sandbox_customers.id', 'sandbox_payment_methods.customer_id')
      .where('sandbox_customers.email', email)
    assert.lengthOf(kept, 0)
  })

  test('holds are cancelled once; refunds never exceed the payment', async ({ assert }) => {
    const gateway = sandbox()
    const card = await savedCard(gateway, '5555555555554444')
    const base = {
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      metadata: {},
    }
    const hold = await gateway.placeHold({ ...base, amountCents: 100, idempotencyKey: 'h' })
    const released = await gateway.releaseHold({ paymentId: hold.id, idempotencyKey: 'r1' })
    const releasedAgain = await gateway.releaseHold({ paymentId: hold.id, idempotencyKey: 'r2' })
    assert.equal(released.status, 'canceled')
    assert.equal(releasedAgain.status, 'canceled')

    const fee = await gateway.chargeFee({
      ...base,
      amountCents: 3000,
      description: 'fee',
      idempotencyKey: 'f',
    })
    await assert.rejects(
      () => gateway.releaseHold({ paymentId: fee.id, idempotencyKey: 'r3' }),
      GatewayRequestError
    )
    await gateway.refund({ paymentId: fee.id, amountCents: 1000, idempotencyKey: 'x1' })
    await gateway.refund({ paymentId: fee.id, idempotencyKey: 'x2' })
    await assert.rejects(
      () => gateway.refund({ paymentId: fee.id, amountCents: 1, idempotencyKey: 'x3' }),
      GatewayRequestError
    )
    const intent = await gateway.findIntent(fee.id)
    assert.equal(intent.amount_refunded, 3000)
  })

  test('an uncaptured hold lapses after SANDBOX_HOLD_EXPIRY_HOURS, on the clock tests move', async ({
    assert,
  }) => {
    // 0.05 hours: three minutes, as the demo's setting.
    const gateway = new SandboxGateway({
      latencyMs: 0,
      requestsPerSecond: 1000,
      webhookSecret: 'whsec_test',
      webhookToleranceSeconds: 300,
      holdExpiryHours: 0.05,
    })
    const card = await savedCard(gateway, '4242424242424242')
    const placedAt = clock.nowMs()
    const hold = await gateway.placeHold({
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      amountCents: 100,
      metadata: { purpose: 'hold' },
      idempotencyKey: 'lapse-hold-1',
    })
    const lapses = Date.parse(hold.captureBefore!)
    assert.isAtMost(Math.abs(lapses - (placedAt + 180_000)), 1500)
    const live = await gateway.retrievePayment(hold.id)
    assert.include(live, { status: 'requires_capture', captureBefore: hold.captureBefore })

    clock.travel(179_000 - (clock.nowMs() - placedAt) - 1000)
    assert.equal((await gateway.retrievePayment(hold.id))!.status, 'requires_capture')
    clock.travel(3000)
    const lapsed = await gateway.retrievePayment(hold.id)
    assert.include(lapsed, { status: 'canceled', cancellationReason: 'automatic' })
    // Releasing a lapsed hold is a success: it is gone either way.
    const released = await gateway.releaseHold({ paymentId: hold.id, idempotencyKey: 'lapse-rel' })
    assert.equal(released.status, 'canceled')
    // A fee (captured at once) never lapses.
    const fee = await gateway.chargeFee({
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      amountCents: 900,
      description: 'fee',
      metadata: { purpose: 'fee' },
      idempotencyKey: 'lapse-fee-1',
    })
    clock.travel(400 * 3_600_000)
    const charged = await gateway.retrievePayment(fee.id)
    assert.include(charged, { status: 'succeeded', captureBefore: null })
  })

  test('answers rate_limited past its requests-per-second limit', async ({ assert }) => {
    const gateway = sandbox(3)
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        gateway.createCardToken({
          number: '4242424242424242',
          expMonth: 12,
          expYear: 2040,
          cvc: '123',
        })
      )
    )
    const limited = results.filter(
      (result) => result.status === 'rejected' && result.reason instanceof GatewayUnavailableError
    )
    assert.isAtLeast(limited.length, 2)
    assert.equal((limited[0] as PromiseRejectedResult).reason.code, 'rate_limited')
  })

  test('with Redis, the budget holds for all processes together, as one account', async ({
    assert,
  }) => {
    // Three gateways stand for three processes; apart, each would let 3 calls through.
    const processes = [1, 2, 3].map(
      () =>
        new SandboxGateway({
          latencyMs: 0,
          requestsPerSecond: 3,
          webhookSecret: 'whsec_test',
          webhookToleranceSeconds: 300,
          sharedBudget: sharedSandboxBudget,
        })
    )
    const { default: redis } = await import('@adonisjs/redis/services/main')
    const refusedBefore = Number((await redis.get(sandboxRefusalsKey())) ?? 0)
    const card = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' }
    const results = await Promise.allSettled(
      processes.flatMap((gateway) => [1, 2, 3, 4].map(() => gateway.createCardToken(card)))
    )
    const passed = results.filter((result) => result.status === 'fulfilled')
    // One second's budget, or two when the calls straddle a second: never 9.
    assert.isAtLeast(passed.length, 3)
    assert.isAtMost(passed.length, 6)
    // Every refusal is counted for load tests to read.
    const refusedAfter = Number((await redis.get(sandboxRefusalsKey())) ?? 0)
    assert.equal(refusedAfter - refusedBefore, results.length - passed.length)
  }).skip(!withRedis, 'Redis is not running on this machine')

  test('with Redis, no call leaves in the last moments of a second, where it would land in the next', async ({
    assert,
  }) => {
    // A clock the test moves: each reading may be followed by a stall of the process.
    const timeFrom = (start: number, stallsAfterReading: number[] = []) => {
      let current = start
      return {
        now() {
          const reading = current
          current += stallsAfterReading.shift() ?? 0
          return reading
        },
        async sleep(ms: number) {
          current += ms
        },
        get current() {
          return current
        },
      }
    }
    const leavesInTime = (at: number) => at % 1000 < 1000 - GATEWAY_SECOND_GUARD_MS
    // A second of its own, far from the other tests' counters.
    const farSecond = () =>
      (Math.floor(Date.now() / 1000) + 100_000 + Math.floor(Math.random() * 1e6)) * 1000

    // Asked 100 ms before a second ends: the call waits for the next second.
    const late = timeFrom(farSecond() + 900)
    await takeGatewayBudget(5, late)
    assert.isTrue(leavesInTime(late.current), `left at ${late.current % 1000} ms into its second`)

    // Asked in time, but the process stalls 400 ms while its turn is granted: the turn is not
    // used, and the call goes in the next second.
    const stalled = timeFrom(farSecond() + 500, [400])
    const askedIn = Math.floor(stalled.current / 1000)
    await takeGatewayBudget(5, stalled)
    assert.isTrue(leavesInTime(stalled.current), `left at ${stalled.current % 1000} ms`)
    assert.isAbove(Math.floor(stalled.current / 1000), askedIn)

    // In time and not stalled: the call leaves at once.
    const inTime = timeFrom(farSecond() + 200)
    const askedAt = inTime.current
    await takeGatewayBudget(5, inTime)
    assert.equal(inTime.current, askedAt)
  }).skip(!withRedis, 'Redis is not running on this machine')

  test('with Redis, every process waits its turn: never more calls in a second than the rate', async ({
    assert,
  }) => {
    // Three "processes" making 6 calls each, at 5 calls a second for all of them together.
    const seconds: number[] = []
    const started = Date.now()
    await Promise.all(
      [1, 2, 3].map(async () => {
        for (let call = 0; call < 6; call++) {
          await takeGatewayBudget(5)
          seconds.push(Math.floor(Date.now() / 1000))
        }
      })
    )
    const perSecond = new Map<number, number>()
    for (const second of seconds) perSecond.set(second, (perSecond.get(second) ?? 0) + 1)
    assert.lengthOf(seconds, 18)
    assert.isAtMost(Math.max(...perSecond.values()), 5)
    // 18 calls at 5 a second take 3 to 4 seconds, not longer: the budget is used, not wasted.
    assert.isBelow(Date.now() - started, 4_500)
  })
    .skip(!withRedis, 'Redis is not running on this machine')
    .timeout(10_000)
})
