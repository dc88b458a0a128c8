import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { promoService } from '#checkout/services/promo_service'
import { consumeAttempt } from '#core/services/rate_limits'
import dropslotConfig from '#config/dropslot'

export default class PromoController {
  async lookup({ request }: HttpContext) {
    await consumeAttempt(
      'promo',
      { ip: request.ip() },
      { requests: dropslotConfig.rateLimits.promoPerMinute, duration: '1 minute' },
      (wait) => `Too many promo code lookups. Please wait ${wait} and try again.`
    )
    const code = request.qs().promoCode
    if (typeof code !== 'string' || code.trim() === '' || code.length > 40) {
      throw AppError.badRequest('Please enter a promo code.', 'promo_code_required', {
        promoCode: 'Please enter a promo code.',
      })
    }
    const promo = await promoService.lookup(code)
    return { success: true, code: promo.code, percent: promo.percent }
  }
}
