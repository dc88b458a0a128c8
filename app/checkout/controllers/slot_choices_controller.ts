import type { HttpContext } from '@adonisjs/core/http'
import { changeSlotChoices } from '#checkout/services/change_slot_choices'
import { presentOrder } from '#orders/services/order_presenter'

export default class SlotChoicesController {
  /** POST /api/user/orders/:orderId/choices {sizes?, retailers?, maxItemPriceCents?} */
  async change({ auth, params, request }: HttpContext) {
    const user = auth.use('customer').getUserOrFail()
    const body = request.body()
    const order = await changeSlotChoices(user, params.orderId, {
      sizes: body.sizes,
      retailers: body.retailers,
      maxItemPriceCents: body.maxItemPriceCents,
    })
    return { success: true, order: presentOrder(order) }
  }
}
