import type { HttpContext } from '@adonisjs/core/http'
import { orderQueries } from '#orders/services/order_queries'
import { presentOrder } from '#orders/services/order_presenter'

export default class OrdersController {
  /** GET /api/user/orders: the spec's Order fields, newest first. */
  async index({ auth }: HttpContext) {
    const orders = await orderQueries.forCustomer(auth.getUserOrFail().id)
    return orders.map((order) => ({
      ...presentOrder(order),
      drawEntryId: (order.$extras.draw_entry_id as string | null | undefined) ?? null,
    }))
  }
}
