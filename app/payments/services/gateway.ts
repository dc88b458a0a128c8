import env from '#start/env'
import paymentsConfig from '#config/payments'
import queueConfig from '#config/queue'
import type { PaymentGateway } from '#payments/gateways/payment_gateway'
import { SandboxGateway } from '#payments/gateways/sandbox_gateway'
import { StripeGateway } from '#payments/gateways/stripe_gateway'

export function buildGateway(name: string = paymentsConfig.gateway): PaymentGateway {
  const client =
    name === 'stripe'
      ? new StripeGateway({
          ...paymentsConfig.stripe,
          webhookToleranceSeconds: paymentsConfig.webhookToleranceSeconds,
          currency: paymentsConfig.currency,
        })
      : new SandboxGateway({
          ...paymentsConfig.sandbox,
          webhookToleranceSeconds: paymentsConfig.webhookToleranceSeconds,
          sharedBudget: env.get('REDIS_URL') ? sharedSandboxBudget : undefined,
        })
  // Several processes share one gateway account: together they keep to its rate.
  return env.get('REDIS_URL')
    ? withinRate(client, () => takeGatewayBudget(queueConfig.gatewayRatePerSecond))
    : client
}

/** The calls that go over the network (the rest, like reading a webhook, are local). */
const NETWORK_CALLS = new Set<string>([
  'createCardToken',
  'saveCard',
  'confirmCardSetup',
  'paymentAction',
  'deleteCustomer',
  'cardFingerprint',
  'placeHold',
  'releaseHold',
  'chargeFee',
  'refund',
  'retrievePayment',
  'retrieveRefund',
  'moneyMoved',
])

/** The gateway with every network call waiting for its turn in the shared budget first. */
export function withinRate(client: PaymentGateway, take: () => Promise<void>): PaymentGateway {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      if (!NETWORK_CALLS.has(String(property))) return value.bind(target)
      return async (...args: unknown[]) => {
        await take()
        return value.apply(target, args)
      }
    },
  })
}

/** Real time, or a time a test controls. */
export interface BudgetTime {
  now(): number
  sleep(ms: number): Promise<void>
}

const realTime: BudgetTime = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/**
 * The part of each second in which no call may leave: a call counted in one second must reach the
 * gateway within it, and on a busy machine a process can stall for tens of milliseconds between
 * being granted its turn and sending (a garbage collection, a scheduler slice lost to another
 * process). Sent later, it lands in the next second's count, which may already be full.
 */
export const GATEWAY_SECOND_GUARD_MS = 150

/** Whether a call may still leave at this instant: before its second's guard. */
const beforeGuard = (at: number) => at % 1000 < 1000 - GATEWAY_SECOND_GUARD_MS

/**
 * Waits until this call fits in the gateway's rate for the whole cluster: one counter per second
 * in Redis for every web process, worker and CLI; a call past the rate waits for the next second.
 * The gateway queue's limiter counts jobs, and one job may make two calls (a fee and a release):
 * this counts calls, so the account never sees more than its rate.
 */
export async function takeGatewayBudget(callsPerSecond: number, time: BudgetTime = realTime) {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  for (;;) {
    const now = time.now()
    if (!beforeGuard(now)) {
      await time.sleep(1000 - (now % 1000) + 1)
      continue
    }
    const second = Math.floor(now / 1000)
    const key = `gateway-budget:${paymentsConfig.installationId}:${second}`
    const [[, count]] = (await redis.multi().incr(key).expire(key, 2).exec()) as [
      [unknown, number],
      unknown,
    ]
    // The guard is measured from when the turn is granted: a turn whose grant came back late
    // (Redis slow to answer, the process stalled) is left unused rather than sent into the
    // next second. Leaving it only lowers this second's use, never raises a count.
    const granted = time.now()
    const sameSecond = Math.floor(granted / 1000) === second
    if (count <= callsPerSecond && sameSecond && beforeGuard(granted)) return
    if (sameSecond) await time.sleep(1000 - (granted % 1000) + Math.random() * 20)
  }
}

/**
 * The sandbox's requests-per-second in Redis, one counter per second for every process, so N web
 * processes and workers together see the 429s one real account would get.
 */
export async function sharedSandboxBudget(requestsPerSecond: number) {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  const key = `sandbox-rate:${paymentsConfig.installationId}:${Math.floor(Date.now() / 1000)}`
  const [[, count]] = (await redis.multi().incr(key).expire(key, 2).exec()) as [
    [unknown, number],
    unknown,
  ]
  if (count <= requestsPerSecond) return true
  // Every refusal is counted, so a load test can prove the gateway was never pushed past its rate.
  const refused = sandboxRefusalsKey()
  await redis.multi().incr(refused).expire(refused, 86_400).exec()
  return false
}

/** The count of requests the sandbox refused with a 429 in the last day (shared budget only). */
export function sandboxRefusalsKey() {
  return `sandbox-refused:${paymentsConfig.installationId}`
}

let current: PaymentGateway | null = null

/** The configured gateway (one per process). Tests may swap it with useGateway(). */
export function gateway(): PaymentGateway {
  current ??= buildGateway()
  return current
}

/** Replaces the gateway (tests); returns the previous one so it can be put back. */
export function useGateway(next: PaymentGateway): PaymentGateway {
  const previous = gateway()
  current = next
  return previous
}
