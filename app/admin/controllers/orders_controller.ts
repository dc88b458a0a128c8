import type { HttpContext } from '@adonisjs/core/http'
import { adminOrders } from '#admin/services/admin_orders_service'
import { sendList } from '#admin/services/rest_query'

/** Orders, read side: `GET /api/admin/orders` (also the spec's call) and one order. */
export default class OrdersController {
  async index({ request, response }: HttpContext) {
    return sendList(response, await adminOrders.list(request.qs()))
  }

  async show({ params }: HttpContext) {
    return adminOrders.show(String(params.id).toLowerCase())
  }
}
