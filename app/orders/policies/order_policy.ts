import { BasePolicy } from '@adonisjs/bouncer'
import type { OrderRecord } from '#orders/services/order_queries'

/** A customer's orders are theirs alone: to look at, to act on, and to follow live. */
/** The signed-in customer as this policy reads them (an account, whatever module keeps it). */
type Customer = { id: number; uuid: string }

export default class OrderPolicy extends BasePolicy {
  /** Their own order (see it, confirm its card check with the bank). */
  manage(user: Customer, order: Pick<OrderRecord, 'userId'>) {
    return order.userId === user.id
  }

  /** The live channel of a customer's orders (`users/<uuid>/orders`): their own only. */
  followUpdates(user: Customer, customerUuid: string) {
    return user.uuid === customerUuid
  }
}
