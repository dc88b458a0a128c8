import { DateTime } from 'luxon'
import PromoCode from '#checkout/models/promo_code'
import { AppError } from '#core/exceptions/app_error'

export const PROMO_NOT_FOUND = 'This promo code is not valid.'

export function normalizePromoCode(code: string) {
  return code.trim().toUpperCase()
}

export class PromoService {
  /** A code customers may use now, or the 404 envelope `promo_not_found`. */
  async lookup(code: string): Promise<PromoCode> {
    const normalized = normalizePromoCode(code)
    const promo = normalized ? await PromoCode.findBy('code', normalized) : null
    if (!promo || !promo.isUsableAt(DateTime.now())) {
      throw AppError.notFound(PROMO_NOT_FOUND, 'promo_not_found')
    }
    return promo
  }
}

export const promoService = new PromoService()
