import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { promoService } from '#checkout/services/promo_service'

export default class PromoController {
  async lookup({ request }: HttpContext) {
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
