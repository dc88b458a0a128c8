import { DateTime } from 'luxon'
import PromoCode from '#checkout/models/promo_code'
import { AppError } from '#core/exceptions/app_error'

export const PROMO_NOT_FOUND = 'This promo code is not valid.'

export function normalizePromoCode(code: string) {
  return code.trim().toUpperCase()
}

/** Promo price: price minus the percent of it, in whole cents. */
export function applyPercent(priceCents: number, percent: number) {
  return Math.max(0, Math.round((priceCents * (100 - percent)) / 100))
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
