/*
| The id a checkout engine is given for one round of an order, the one place it is built and read:
| `task-{orderPublicId}-{round}`. An order's first submission is round 1; each retry of a failed
| order is a new round (`release_tasks.round_number`), so a bot never confuses a retried order's
| task with the failed one before it, and a late result of an older round can be told apart.
| Tasks handed out before rounds existed were `task-{orderPublicId}`: read as naming no round.
| An order of a release with retailers is tried at each one it accepts, a task per retailer:
| `task-{orderPublicId}-{round}-{retailer}`.
*/
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const TASK_ID = new RegExp(`^task-(${UUID})(?:-([1-9][0-9]{0,5})(?:-([a-z0-9]{1,32}))?)?$`, 'i')

/** What a result names: an order, its round (null: none named) and the retailer tried (null: none). */
export type ResultTarget = { orderId: string; round: number | null; retailer: string | null }

/**
 * The order and round a result names: its `taskId` (the task it answers), or its `orderId` with
 * an optional `round`. When both are given they must agree. Throws a sentence for the bot when
 * they do not, or when neither names an order. Round null: the result names none.
 */
export function resultTarget(orderId: unknown, taskId: unknown, round: unknown): ResultTarget {
  const given = (value: unknown) => value !== undefined && value !== null && value !== ''
  let order: string | null = null
  let named: number | null = null
  let retailer: string | null = null
  if (given(taskId)) {
    const task = taskIds.parse(taskId)
    if (!task)
      throw new Error('taskId must be the task id you were given (task-<orderId>-<round>).')
    order = task.orderId
    named = task.round
    retailer = task.retailer
  }
  if (given(orderId)) {
    if (typeof orderId !== 'string' || orderId.length > 36) {
      throw new Error('orderId must be the order id.')
    }
    if (order !== null && orderId.toLowerCase() !== order) {
      throw new Error('orderId and taskId name different orders.')
    }
    order = orderId
  }
  if (order === null) throw new Error('orderId must be the order id.')
  if (given(round)) {
    const value = typeof round === 'string' && /^\d{1,6}$/.test(round) ? Number(round) : round
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > 999_999) {
      throw new Error('round must be a whole number from 1.')
    }
    if (named !== null && named !== value)
      throw new Error('round and taskId name different rounds.')
    named = value
  }
  return { orderId: order, round: named, retailer }
}

export const taskIds = {
  build: (orderPublicId: string, round: number, retailer: string | null = null) =>
    retailer ? `task-${orderPublicId}-${round}-${retailer}` : `task-${orderPublicId}-${round}`,

  /**
   * The order, round and retailer a task id names (round or retailer null for an id without
   * one); null if malformed.
   */
  parse(taskId: unknown): ResultTarget | null {
    if (typeof taskId !== 'string') return null
    const match = TASK_ID.exec(taskId)
    if (!match) return null
    return {
      orderId: match[1].toLowerCase(),
      round: match[2] ? Number(match[2]) : null,
      retailer: match[3] ? match[3].toLowerCase() : null,
    }
  },
}

/**
 * The size a success was bought in and what the retailer charged for it (cents, shipping
 * included), as a bot reports them; each optional. Throws a sentence for the bot when malformed.
 */
export function wonDetails(
  size: unknown,
  totalCents: unknown
): { size: string | null; totalCents: number | null } {
  const given = (value: unknown) => value !== undefined && value !== null && value !== ''
  if (given(size) && typeof size !== 'string' && typeof size !== 'number') {
    throw new Error('size must be the size bought, as the task named it.')
  }
  const sizeText = given(size) ? String(size).trim().slice(0, 16) : null
  if (!given(totalCents)) return { size: sizeText, totalCents: null }
  const total =
    typeof totalCents === 'string' && /^\d{1,9}$/.test(totalCents) ? Number(totalCents) : totalCents
  if (
    typeof total !== 'number' ||
    !Number.isSafeInteger(total) ||
    total < 0 ||
    total > 100_000_000
  ) {
    throw new Error('totalCents must be whole cents from 0.')
  }
  return { size: sizeText, totalCents: total }
}
