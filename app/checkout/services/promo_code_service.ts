import { DateTime } from 'luxon'
import vine from '@vinejs/vine'
import PromoCode from '#checkout/models/promo_code'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

export { promoUsableAt } from '#checkout/models/promo_code'

/** A promo code as other modules read it (the console): its columns. */
export type PromoCodeRecord = Readonly<ModelAttributes<PromoCode>>
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

/** A code's fields as the console and the CLI give them, dates already parsed. */
export type PromoFields = {
  code: string
  percent: number
  startsAt?: DateTime | null
  expiresAt?: DateTime | null
  maxUses?: number | null
  active?: boolean
}

const CODE_TAKEN = 'Another promo code already uses this code.'
const EXPIRES_BEFORE_START = 'The expiry must be after the start.'

/**
 * Promo codes are written here only, for the console and the CLI alike: codes are upper-case and
 * unique (the database's unique index decides), and a code never expires before it starts. Orders
 * keep their own copy of the code and percent, so editing or deleting a code never changes a
 * placed order.
 */
export class PromoCodeService {
  query() {
    return PromoCode.query()
  }

  find(id: number) {
    return PromoCode.find(id)
  }

  /** The CLI's input (dates as text), checked like the console's. */
  async createFromInput(input: NewPromoCode): Promise<PromoCode> {
    const data = await newPromoCodeValidator.validate({
      maxUses: null,
      startsAt: null,
      expiresAt: null,
      ...input,
    })
    return this.create({
      code: data.code,
      percent: data.percent,
      maxUses: data.maxUses,
      startsAt: data.startsAt ? DateTime.fromJSDate(data.startsAt) : null,
      expiresAt: data.expiresAt ? DateTime.fromJSDate(data.expiresAt) : null,
    })
  }

  async create(fields: PromoFields): Promise<PromoCode> {
    const promo = new PromoCode().merge({
      code: fields.code,
      percent: fields.percent,
      startsAt: fields.startsAt ?? null,
      expiresAt: fields.expiresAt ?? null,
      maxUses: fields.maxUses ?? null,
      active: fields.active ?? true,
      uses: 0,
    })
    await this.save(promo)
    return promo
  }

  /** Applies the given changes (undefined leaves a field as it is); null when there is no such code. */
  async update(id: number, changes: Partial<PromoFields>): Promise<PromoCode | null> {
    const promo = await PromoCode.find(id)
    if (!promo) return null
    promo.merge(Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)))
    await this.save(promo)
    return promo
  }

  /** Deletes a code; false when there was none. */
  async remove(id: number): Promise<boolean> {
    const promo = await PromoCode.find(id)
    if (!promo) return false
    await promo.delete()
    return true
  }

  private async save(promo: PromoCode) {
    if (promo.startsAt && promo.expiresAt && promo.expiresAt <= promo.startsAt) {
      throw AppError.unprocessable(EXPIRES_BEFORE_START, { expiresAt: EXPIRES_BEFORE_START })
    }
    try {
      await promo.save()
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError(`Promo code ${promo.code} already exists.`, {
          status: 422,
          code: 'promo_code_taken',
          errors: { code: CODE_TAKEN },
        })
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
