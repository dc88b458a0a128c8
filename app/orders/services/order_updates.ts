import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import app from '@adonisjs/core/services/app'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import transmitConfig from '#config/transmit'
import { orderNumber } from '#orders/services/order_numbers'

/** The live channel of one customer's orders (`users/<user uuid>/orders`). */
export const CUSTOMER_ORDERS_CHANNEL = 'users/:uuid/orders'

export function customerOrdersChannel(userUuid: string) {
  return `users/${userUuid}/orders`
}

/** What a customer's open orders page is told: which order moved, and where it is now. */
export type OrderUpdate = {
  orderId: string
  orderNumber: string
  status: string
  holdStatus: string
  feeStatus: string
}

/**
 * Tells an order's customer, over their live channel, that the order's status (or its hold or
 * fee) changed, so an open orders page refetches at once instead of waiting for its next poll.
 * Called once the change is committed; a failure here is logged and never undoes or fails the
 * transition (the page's fallback polling still catches up).
 */
class OrderUpdates {
  async changed(orderId: number): Promise<void> {
    try {
      // Resolved here, not imported: the service's module waits for the app to boot, and the
      // modules that import this one are loaded while it boots.
      const transmit = await app.container.make('transmit')
      // In-process delivery with nobody connected: no one to tell, so no query on the hot path.
      if (!transmitConfig.transport && transmit.getManager().getAllSubscribers().size === 0) return
      const row = await db
        .from('orders')
        .join('users', 'users.id', 'orders.user_id')
        .where('orders.id', orderId)
        .select(
          'users.uuid as user_uuid',
          'orders.public_id',
          'orders.status',
          'orders.hold_status',
          'orders.fee_status'
        )
        .first()
      if (!row) return
      const update: OrderUpdate = {
        orderId: row.public_id,
        orderNumber: orderNumber(orderId),
        status: row.status,
        holdStatus: row.hold_status,
        feeStatus: row.fee_status,
      }
      transmit.broadcast(customerOrdersChannel(row.user_uuid), update)
    } catch (error) {
      logger.warn({ err: error, orderId }, 'could not announce an order update')
    }
  }

  /** `changed` once `trx` commits (nothing when it rolls back). */
  afterCommit(trx: TransactionClientContract, orderId: number) {
    trx.after('commit', () => this.changed(orderId))
  }
}

export const orderUpdates = new OrderUpdates()
