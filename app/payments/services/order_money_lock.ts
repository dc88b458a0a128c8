import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import lock from '@adonisjs/lock/services/main'
import logger from '@adonisjs/core/services/logger'
import lockConfig from '#config/lock'
import env from '#start/env'
import { AppError } from '#core/exceptions/app_error'

export const ORDER_BUSY_MESSAGE =
  'Another payment action on this order is in progress (a charge, a refund, a card check or a ' +
  'correction). Nothing was changed; reload the order and try again in a moment.'

/** A second money action on an order while one is in flight: 409, nothing changed. */
export class OrderBusyError extends AppError {
  constructor(public orderId: number) {
    super(ORDER_BUSY_MESSAGE, { status: 409, code: 'order_busy' })
  }
}

export type MoneyLockOptions = {
  /**
   * How long to wait for an action in flight to finish, in ms. 0: refuse at once (a person's
   * action: the console, the CLI). Background work waits (`ORDER_LOCK_WAIT_MS` by default).
   */
  waitMs?: number
}

type Lease = { active: boolean }

/** The orders whose lock this async call chain holds (so a locked step may call another). */
const leases = new AsyncLocalStorage<ReadonlyMap<number, Lease>>()

const processTag = `${hostname()}:${process.pid}`

/**
 * One money action per order at a time, across every process and host: hold placement and
 * renewal, fee charge and retry, refunds, waive, correct, retry, cancel and every outcome take
 * the order's lock (`order-money:{orderId}`) in the release lock's store (`@adonisjs/lock`:
 * Redis with REDIS_URL, else the `locks` table). Every money path goes through `run`: the
 * payment service's entry points, `orderSettlement`, the hold worker, the console's and the
 * CLI's money tools, fee retries, the outcome path and webhooks.
 *
 * - Re-entrant within one call chain: a locked action that calls another locked step of the
 *   same order runs it under the lock it holds (AsyncLocalStorage), never waits on itself.
 * - Never two orders nested: every path locks one order at a time, and waits are bounded, so
 *   two processes can never wait on each other for ever.
 * - The holder renews the lock while it works (a slow gateway keeps it); a process that dies
 *   stops renewing, and the lock lapses after its TTL (`RELEASE_LOCK_TTL_MS`, as the release
 *   lock's).
 * - A job dispatched from inside a locked action runs, with the embedded driver, in the caller's
 *   async context: it must not be a money job of the same order (none is).
 */
export class OrderMoneyLock {
  constructor(
    private options: { ttlMs: number; waitMs: number } = {
      /**
       * Renewed every third of it while the action runs; lapses this long after a crash. The
       * release lock's expiry (`RELEASE_LOCK_TTL_MS`): a run taking over a killed one finds the
       * killed run's order free by then.
       */
      ttlMs: env.get('RELEASE_LOCK_TTL_MS', 60_000),
      /** Background work waits this long for an action in flight (a gateway round trip or two). */
      waitMs: 15_000,
    }
  ) {}

  key(orderId: number) {
    return `order-money:${orderId}`
  }

  /** Whether any process holds the order's money lock now (an action is in flight). */
  async isHeld(orderId: number): Promise<boolean> {
    return lock.use(lockConfig.default).createLock(this.key(orderId)).isLocked()
  }

  /** Whether this call chain holds the order's lock now. */
  holds(orderId: number) {
    return leases.getStore()?.get(orderId)?.active === true
  }

  /**
   * Runs `action` holding the order's money lock. Throws `OrderBusyError` (409 `order_busy`)
   * when another action holds it past `waitMs`; then nothing of `action` ran.
   */
  async run<T>(orderId: number, action: () => Promise<T>, options: MoneyLockOptions = {}) {
    if (this.holds(orderId)) return action()
    const ttl = this.options.ttlMs
    const handle = lock.use(lockConfig.default).restoreLock({
      key: this.key(orderId),
      owner: `${processTag}:${randomUUID()}`,
      ttl,
      expirationTime: null,
    })
    const waitMs = options.waitMs ?? this.options.waitMs
    const acquired =
      waitMs <= 0
        ? await handle.acquireImmediately()
        : await handle.acquire({
            retry: { attempts: Number.POSITIVE_INFINITY, delay: 50, timeout: waitMs },
          })
    if (!acquired) throw new OrderBusyError(orderId)

    const lease: Lease = { active: true }
    const renewal = setInterval(
      () => {
        handle.extend(ttl).catch((error) => {
          logger.error({ err: error, orderId }, 'the order money lock could not be renewed')
        })
      },
      Math.max(1000, Math.floor(ttl / 3))
    )
    renewal.unref()
    const held = new Map(leases.getStore() ?? [])
    held.set(orderId, lease)
    try {
      return await leases.run(held, action)
    } finally {
      lease.active = false
      clearInterval(renewal)
      await this.release(handle, orderId)
    }
  }

  private async release(handle: { release(): Promise<void> }, orderId: number) {
    try {
      await handle.release()
    } catch (error) {
      if ((error as { code?: string }).code === 'E_LOCK_NOT_OWNED') {
        // Lapsed (the process stalled past the TTL) and taken by another: theirs now.
        logger.warn({ orderId }, 'the order money lock had lapsed before it was released')
        return
      }
      // The store could not be reached: the lock lapses after its TTL by itself.
      logger.error({ err: error, orderId }, 'the order money lock could not be released')
    }
  }
}

export const orderMoneyLock = new OrderMoneyLock()

/** `orderMoneyLock.run`: the one way into an order's money. */
export function withOrderMoney<T>(
  orderId: number,
  action: () => Promise<T>,
  options: MoneyLockOptions = {}
): Promise<T> {
  return orderMoneyLock.run(orderId, action, options)
}
