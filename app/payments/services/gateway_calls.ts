import { setTimeout as sleep } from 'node:timers/promises'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderQueries } from '#orders/services/order_queries'
import {
  CardDeclinedError,
  GatewayRequestError,
  GatewayUnavailableError,
} from '#payments/gateways/payment_gateway'
import { ledger } from '#payments/services/ledger'

export const idOf = (orderOrId: OrderRecord | number) =>
  typeof orderOrId === 'number' ? orderOrId : orderOrId.id

/** The order as it is now (a caller's copy may be stale once the money lock is taken). */
export async function fresh(orderOrId: OrderRecord | number): Promise<OrderRecord> {
  return orderQueries.findById(idOf(orderOrId))
}

/** Unavailable (rate limit, network) and "our credentials were refused" are worth retrying. */
export function isRetryable(
  error: unknown
): error is GatewayUnavailableError | GatewayRequestError {
  return (
    error instanceof GatewayUnavailableError ||
    (error instanceof GatewayRequestError && error.code === 'gateway_misconfigured')
  )
}

/** A failed call on its ledger row: open for a retry with the same key, or failed for good. */
export async function recordFailure(entry: Parameters<typeof ledger.fail>[0], error: unknown) {
  if (isRetryable(error)) {
    await ledger.noteRetry(entry, error.code, error.message)
  } else if (error instanceof CardDeclinedError) {
    await ledger.fail(entry, error.declineCode ?? error.code, error.message)
  } else if (error instanceof GatewayRequestError) {
    await ledger.fail(entry, error.code, error.message)
  } else {
    await ledger.noteRetry(entry, 'error', error instanceof Error ? error.message : 'error')
  }
}

/** A synchronous call (card save) waits briefly on a provider 429 instead of failing at once. */
export async function withRateLimitRetry<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (
        !(error instanceof GatewayUnavailableError) ||
        error.code !== 'rate_limited' ||
        attempt >= 4
      ) {
        throw error
      }
      await sleep(100 * 2 ** attempt)
    }
  }
}
