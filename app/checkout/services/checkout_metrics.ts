import { AppError } from '#core/exceptions/app_error'
import { checkouts, soldOutRefusals } from '#core/services/metrics'

/*
| Checkouts by result for Prometheus (docs/operations.md). The children are bound once: a
| checkout adds one to a counter, nothing more.
*/
const ordered = checkouts.labels('ordered')
const entered = checkouts.labels('entered')
const soldOutResult = checkouts.labels('sold_out')
const duplicate = checkouts.labels('duplicate')
const refused = checkouts.labels('refused')
const failed = checkouts.labels('error')
const soldOutInMemory = soldOutRefusals.labels('shortcut')
const soldOutInDatabase = soldOutRefusals.labels('checkout')

/** Runs a checkout and counts its result: the order (or draw entry), or why it was refused. */
export async function countCheckout<T>(
  run: () => Promise<T>,
  orderOf: (result: T) => { status: string } = (result) => result as { status: string }
): Promise<T> {
  let result: T
  try {
    result = await run()
  } catch (error) {
    const code = error instanceof AppError ? error.code : null
    if (code === 'sold_out') {
      soldOutResult.inc()
      soldOutInDatabase.inc()
    } else if (code === 'duplicate') {
      duplicate.inc()
    } else if (error instanceof AppError && error.status < 500) {
      refused.inc()
    } else {
      failed.inc()
    }
    throw error
  }
  if (orderOf(result).status === 'entered') entered.inc()
  else ordered.inc()
  return result
}

/** A press on a product remembered as sold out, answered before the checkout. */
export function countShortcutSoldOut() {
  soldOutResult.inc()
  soldOutInMemory.inc()
}
