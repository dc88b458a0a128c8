import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import { productIdOf, SOLD_OUT_BODY } from '#checkout/services/checkout_service'
import { countShortcutSoldOut } from '#checkout/services/checkout_metrics'

/**
 * After a drop sells out, nearly every press of Confirm is for it. A product remembered as sold
 * out (SoldOutMemory: for a second at most) is answered here, before the bearer token is looked
 * up and the rate limits are counted: the answer tells no more than the product page tells
 * anyone, and it is the cheapest request the app can answer. It is the error handler's 409
 * envelope, serialised once (same status, body and headers as a sold-out press the checkout
 * refuses). Every other press goes on to the auth middleware, and the checkout decides as before.
 */
export default class SoldOutShortcutMiddleware {
  handle({ request, response }: HttpContext, next: NextFn) {
    if (soldOutMemory.has(productIdOf(request.body().productId))) {
      countShortcutSoldOut()
      response.status(409).header('content-type', 'application/json; charset=utf-8')
      response.send(SOLD_OUT_BODY)
      return
    }
    return next()
  }
}
