import env from '#start/env'
import paymentsConfig from '#config/payments'
import type { PaymentGateway } from '#payments/gateways/payment_gateway'
import { SandboxGateway } from '#payments/gateways/sandbox_gateway'
import { StripeGateway } from '#payments/gateways/stripe_gateway'

export function buildGateway(name: string = paymentsConfig.gateway): PaymentGateway {
  if (name === 'stripe') {
    return new StripeGateway({
      ...paymentsConfig.stripe,
      webhookToleranceSeconds: paymentsConfig.webhookToleranceSeconds,
      currency: paymentsConfig.currency,
    })
  }
  return new SandboxGateway({
    ...paymentsConfig.sandbox,
    webhookToleranceSeconds: paymentsConfig.webhookToleranceSeconds,
    sharedBudget: env.get('REDIS_URL') ? sharedSandboxBudget : undefined,
  })
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
