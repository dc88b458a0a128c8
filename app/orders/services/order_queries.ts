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
}

export const orderQueries = new OrderQueries()
