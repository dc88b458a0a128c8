import type { HttpContext } from '@adonisjs/core/http'
import checkoutConfig from '#config/checkout'
import dropslotConfig from '#config/dropslot'
import { consumeAttempt } from '#core/services/rate_limits'
import { checkoutService } from '#checkout/services/checkout_service'
import { completeUserService } from '#checkout/services/complete_user_service'
import { presentOrder } from '#orders/services/order_presenter'
import { countCheckout } from '#checkout/services/checkout_metrics'

export default class CheckoutController {
  /**
   * POST /api/checkout/withprofile {productId, style, size, profileId, promoCode?, eCardCode?,
   * queuePass?, sizes?, retailers?, maxItemPriceCents?}
   */
  async withProfile({ auth, request, response }: HttpContext) {
    const user = auth.use('customer').getUserOrFail()
    await this.limit(request.ip(), `customer-${user.uuid}`)
    const body = request.body()
    const order = await countCheckout(() =>
      checkoutService.checkout(user, {
        productId: body.productId,
        style: body.style,
        size: body.size,
        profileId: body.profileId,
        promoCode: body.promoCode,
        eCardCode: body.eCardCode,
        queuePass: body.queuePass,
        sizes: body.sizes,
        retailers: body.retailers,
        maxItemPriceCents: body.maxItemPriceCents,
      })
    )
    return response.created({ success: true, order: presentOrder(order) })
  }

  /** POST /api/checkout/completeuser {email, name, productId, stripeToken, acoDataPayload} */
  async completeUser({ auth, request, response }: HttpContext) {
    const caller = (await auth.use('api').check()) ? auth.use('api').user! : null
    const body = request.body()
    await this.limit(request.ip(), caller ? `customer-${caller.uuid}` : null)
    if (!caller) {
      // Anonymous calls create accounts: the same limit as registration.
      await consumeAttempt(
        'register',
        { ip: request.ip(), email: typeof body.email === 'string' ? body.email : null },
        { requests: dropslotConfig.rateLimits.registerPerHour, duration: '1 hour' }
      )
    }
    const { order, token } = await countCheckout(
      () =>
        completeUserService.complete(caller, {
          email: body.email,
          name: body.name,
          productId: body.productId,
          stripeToken: body.stripeToken,
          acoDataPayload: body.acoDataPayload,
          style: body.style,
          size: body.size,
          promoCode: body.promoCode,
        }),
      (result) => result.order
    )
    return response.created({
      success: true,
      order: presentOrder(order),
      ...(token ? { token } : {}),
    })
  }

  /** Generous per-customer and per-address limits (docs/decisions.md, "Security"); 429 after. */
  private async limit(ip: string, customerKey: string | null) {
    const limits = checkoutConfig.rateLimits
    await consumeAttempt(
      'checkout',
      { ip },
      { requests: limits.perIpPerMinute, duration: '1 minute' }
    )
    if (customerKey) {
      await consumeAttempt(
        'checkout',
        { ip: customerKey },
        { requests: limits.perCustomerPerMinute, duration: '1 minute' }
      )
    }
  }
}
