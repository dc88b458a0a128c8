import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import { productIdOf, soldOut } from '#checkout/services/checkout_service'
import { countShortcutSoldOut } from '#checkout/services/checkout_metrics'

/**
 * After a drop sells out, nearly every press of Confirm is for it. A product remembered as sold
 * out (SoldOutMemory: for a second at most) is answered here, before the bearer token is looked
 * up and the rate limits are counted: the answer tells no more than the product page tells
 * anyone, and it is the cheapest request the app can answer. Every other press goes on to the
 * auth middleware, and the checkout decides as before.
 */
export default class SoldOutShortcutMiddleware {
  handle({ request }: HttpContext, next: NextFn) {
    if (soldOutMemory.has(productIdOf(request.body().productId))) {
      countShortcutSoldOut()
      throw soldOut()
    }
    return next()
  }
}
