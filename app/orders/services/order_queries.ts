import type User from '#accounts/models/user'
import Order from '#orders/models/order'
import { AppError } from '#core/exceptions/app_error'

/** Reading orders: a customer's own list and lookups by public id. */
export class OrderQueries {
  /** The customer's orders, newest first. */
  async forCustomer(user: User) {
    return Order.query()
      .where('user_id', user.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
  }

  async findById(id: number): Promise<Order> {
    const order = await Order.find(id)
    if (!order) throw AppError.notFound('Order not found.', 'order_not_found')
    return order
  }

  async findByPublicId(publicId: unknown): Promise<Order> {
    const order =
      typeof publicId === 'string' && publicId.length <= 36
        ? await Order.findBy('publicId', publicId)
        : null
    if (!order) throw AppError.notFound('Order not found.', 'order_not_found')
    return order
  }

  /**
   * Money still open on orders (dashboard): successful orders whose fee is not charged yet
   * (none, failed or waiting for the customer's authentication) and $1.00 holds placed and not
   * released.
   */
  async openMoney() {
    const [due, holds] = await Promise.all([
      Order.query()
        .where('status', 'success')
        .whereIn('fee_status', ['none', 'failed', 'requires_action'])
        .where('price_cents', '>', 0)
        .count('* as total')
        .sum('price_cents as cents'),
      Order.query()
        .where('hold_status', 'placed')
        .count('* as total')
        .sum('hold_amount_cents as cents'),
    ])
    const read = (rows: Order[]) => ({
      count: Number(rows[0]?.$extras.total ?? 0),
      cents: Number(rows[0]?.$extras.cents ?? 0),
    })
    return { feesDue: read(due), holdsOpen: read(holds) }
  }
}

export const orderQueries = new OrderQueries()
