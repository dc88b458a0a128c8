import router from '@adonisjs/core/services/router'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { plainJsonBody } from '#core/services/json_body'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import { productIdOf, SOLD_OUT_BODY } from '#checkout/services/checkout_service'
import { countShortcutSoldOut } from '#checkout/services/checkout_metrics'

type RouteJson = NonNullable<HttpContext['route']>

/** The checkout's route, looked up once (its routes are committed before the first request). */
let checkoutRoute: RouteJson | undefined

/**
 * After a drop sells out, nearly every press of Confirm is for it. A press on a product
 * remembered as sold out (SoldOutMemory: for a second at most) is answered here, among the
 * server middleware, after the request is timed and given its security headers but before the
 * router, the route's middleware, the bearer token and the rate limits: the answer tells no more
 * than the product page tells anyone, and it is the cheapest request the app can answer. It is
 * the error handler's 409 envelope, serialised once (same status, body and headers as a
 * sold-out press the checkout refuses), counted under the checkout's route.
 *
 * Only a plain JSON body is read here (`plainJsonBody`, which then hands it to the body parser,
 * and refuses a malformed body as the parser would). Every other press, and every press for a
 * product not remembered, goes on to the router, and the checkout decides as before.
 */
export default class SoldOutShortcutMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    checkoutRoute ??= router.findOrFail('checkout.withProfile')
    const request = ctx.request
    if (request.method() !== 'POST' || request.url() !== checkoutRoute.pattern) return next()
    const body = plainJsonBody(request)
    return body ? this.answer(ctx, body, next) : next()
  }

  private async answer(
    ctx: HttpContext,
    body: NonNullable<ReturnType<typeof plainJsonBody>>,
    next: NextFn
  ) {
    const { parsed } = await body
    const productId = (parsed as { productId?: unknown } | null)?.productId
    if (!soldOutMemory.has(productIdOf(productId))) return next()
    countShortcutSoldOut()
    ctx.route = checkoutRoute
    ctx.response.status(409).header('content-type', 'application/json; charset=utf-8')
    ctx.response.send(SOLD_OUT_BODY)
  }
}
