import type { PaymentGateway } from '#payments/gateways/payment_gateway'
import { gateway, useGateway } from '#payments/services/gateway'
import { orderMoneyLock } from '#payments/services/order_money_lock'

type GatedCall = 'chargeFee' | 'refund' | 'placeHold' | 'releaseHold'

/**
 * The configured (sandbox) gateway with one kind of call held at the provider until the test
 * lets it answer: a slow provider whose answer time the test decides, instead of a sleep.
 * Every other call, and the held one once released, is the real sandbox's.
 */
export function slowGateway(call: GatedCall) {
  const real = gateway()
  let answer!: () => void
  const answered = new Promise<void>((resolve) => (answer = resolve))
  let arrived!: () => void
  const inFlight = new Promise<void>((resolve) => (arrived = resolve))
  const slow = new Proxy(real, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      if (property !== call) return value.bind(target)
      return async (...args: unknown[]) => {
        arrived()
        await answered
        return value.apply(target, args)
      }
    },
  }) as PaymentGateway
  const previous = useGateway(slow)
  return {
    /** Resolves once the held call reached the provider. */
    inFlight,
    /** Lets the provider answer the held call. */
    answer,
    restore: () => useGateway(previous),
  }
}

/** Waits until some process holds the order's money lock (an action is in flight). */
export async function moneyLockTaken(orderId: number, ms = 60_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await orderMoneyLock.isHeld(orderId)) return true
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return false
}
