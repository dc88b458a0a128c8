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

/**
 * Waits until this call fits in the gateway's rate for the whole cluster: one counter per second
 * in Redis for every web process, worker and CLI; a call past the rate waits for the next second.
 * The gateway queue's limiter counts jobs, and one job may make two calls (a fee and a release):
 * this counts calls, so the account never sees more than its rate.
 */
export async function takeGatewayBudget(callsPerSecond: number) {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  for (;;) {
    const now = Date.now()
    // A call counted in one second must reach the gateway within it: none starts in its last
    // 20 ms, where it would land in the next second's count and could overfill it.
    if (now % 1000 > 980) {
      await new Promise((resolve) => setTimeout(resolve, 1000 - (now % 1000) + 1))
      continue
    }
    const key = `dropslot:gateway-budget:${paymentsConfig.installationId}:${Math.floor(now / 1000)}`
    const [[, count]] = (await redis.multi().incr(key).expire(key, 2).exec()) as [
      [unknown, number],
      unknown,
    ]
    if (count <= callsPerSecond) return
    await new Promise((resolve) => setTimeout(resolve, 1000 - (now % 1000) + Math.random() * 20))
  }
}

/**
 * The sandbox's requests-per-second in Redis, one counter per second for every process, so N web
 * processes and workers together see the 429s one real account would get.
 */
export async function sharedSandboxBudget(requestsPerSecond: number) {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  const key = `dropslot:sandbox-rate:${paymentsConfig.installationId}:${Math.floor(Date.now() / 1000)}`
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
  return `dropslot:sandbox-refused:${paymentsConfig.installationId}`
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
