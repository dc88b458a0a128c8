import { DateTime } from 'luxon'
import vine from '@vinejs/vine'
import PromoCode from '#checkout/models/promo_code'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { normalizePromoCode } from '#checkout/services/promo_service'

export const newPromoCodeValidator = vine.compile(
  vine.object({
    code: vine
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{2,40}$/)
      .transform(normalizePromoCode),
    percent: vine.number().withoutDecimals().range([1, 100]),
    maxUses: vine.number().withoutDecimals().min(1).nullable(),
    startsAt: vine.date({ formats: { utc: true } }).nullable(),
    expiresAt: vine.date({ formats: { utc: true } }).nullable(),
  })
)

export type NewPromoCode = {
  code: string
  percent: number
  maxUses?: number | null
  startsAt?: string | Date | null
  expiresAt?: string | Date | null
}

/** Creating and presenting promo codes (operators and admins). */
export class PromoCodeService {
  query() {
    return PromoCode.query()
  }

  find(id: number) {
    return PromoCode.find(id)
  }

  /** An unsaved code, for a caller that checks and saves it itself (the console). */
  draft(
    fields: Partial<
      Pick<PromoCode, 'code' | 'percent' | 'startsAt' | 'expiresAt' | 'maxUses' | 'active' | 'uses'>
    >
  ) {
    return new PromoCode().merge(fields)
  }

  async create(input: NewPromoCode): Promise<PromoCode> {
    const data = await newPromoCodeValidator.validate({
      maxUses: null,
      startsAt: null,
      expiresAt: null,
      ...input,
    })
    if (data.startsAt && data.expiresAt && data.expiresAt <= data.startsAt) {
      throw AppError.unprocessable('The code must expire after it starts.', {
        expiresAt: 'The code must expire after it starts.',
      })
    }
    try {
      return await PromoCode.create({
        code: data.code,
        percent: data.percent,
        maxUses: data.maxUses,
        startsAt: data.startsAt ? DateTime.fromJSDate(data.startsAt) : null,
        expiresAt: data.expiresAt ? DateTime.fromJSDate(data.expiresAt) : null,
        uses: 0,
        active: true,
      })
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppError.conflict(`Promo code ${data.code} already exists.`, 'promo_code_taken')
      }
      throw error
    }
  }

  present(promo: PromoCode) {
    return {
      id: promo.id,
      code: promo.code,
      percent: promo.percent,
      maxUses: promo.maxUses,
      uses: promo.uses,
      active: promo.active,
      startsAt: promo.startsAt?.toISO() ?? null,
      expiresAt: promo.expiresAt?.toISO() ?? null,
    }
  }
}

export const promoCodeService = new PromoCodeService()
