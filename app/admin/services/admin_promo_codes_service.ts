import type { DateTime } from 'luxon'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { promoCodeList } from '#admin/services/list_definitions'
import { presentPromoCode } from '#admin/services/presenters'
import { runList } from '#core/services/rest_query'
import { promoCodeService } from '#checkout/services/promo_code_service'
import type PromoCode from '#checkout/models/promo_code'

type Who = Pick<AuditEntry, 'actor' | 'ip'>

export type PromoFields = {
  code: string
  percent: number
  startsAt?: DateTime | null
  expiresAt?: DateTime | null
  maxUses?: number | null
  active?: boolean
}

const CODE_TAKEN = 'Another promo code already uses this code.'

/**
 * Promo codes: codes are upper-case and unique (the database's unique index decides), the
 * percent is 1-100, and a code never expires before it starts. Orders keep their own copy of
 * the code and percent, so editing or deleting a code never changes a placed order.
 */
export class AdminPromoCodesService {
  list(qs: Record<string, unknown>) {
    return runList(promoCodeService.query(), promoCodeList, qs, presentPromoCode)
  }

  async find(id: number) {
    const promo = Number.isSafeInteger(id) && id > 0 ? await promoCodeService.find(id) : null
    if (!promo) throw AppError.notFound('Promo code not found.', 'promo_not_found')
    return promo
  }

  async show(id: number) {
    return presentPromoCode(await this.find(id))
  }

  private checkWindow(startsAt: DateTime | null, expiresAt: DateTime | null) {
    if (startsAt && expiresAt && expiresAt <= startsAt) {
      const message = 'The expiry must be after the start.'
      throw AppError.unprocessable(message, { expiresAt: message })
    }
  }

  private async save(promo: PromoCode) {
    try {
      await promo.save()
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.unprocessable(CODE_TAKEN, { code: CODE_TAKEN })
      throw error
    }
  }

  async create(fields: PromoFields, who: Who) {
    this.checkWindow(fields.startsAt ?? null, fields.expiresAt ?? null)
    const promo = promoCodeService.draft({
      code: fields.code,
      percent: fields.percent,
      startsAt: fields.startsAt ?? null,
      expiresAt: fields.expiresAt ?? null,
      maxUses: fields.maxUses ?? null,
      active: fields.active ?? true,
      uses: 0,
    })
    await this.save(promo)
    await auditLog.record({
      ...who,
      action: 'promo.create',
      subjectType: 'promo_code',
      subjectId: promo.id,
      meta: { promoCode: promo.code, percent: promo.percent },
    })
    return presentPromoCode(promo)
  }

  async update(id: number, changes: Partial<PromoFields>, who: Who) {
    const promo = await this.find(id)
    const before = presentPromoCode(promo)
    const startsAt = changes.startsAt === undefined ? promo.startsAt : changes.startsAt
    const expiresAt = changes.expiresAt === undefined ? promo.expiresAt : changes.expiresAt
    this.checkWindow(startsAt, expiresAt)
    promo.merge(Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)))
    await this.save(promo)
    const after = presentPromoCode(promo)
    const changed = Object.fromEntries(
      (['code', 'percent', 'startsAt', 'expiresAt', 'maxUses', 'active'] as const)
        .filter((key) => before[key] !== after[key])
        .map((key) => [key === 'code' ? 'promoCode' : key, { from: before[key], to: after[key] }])
    )
    if (Object.keys(changed).length > 0) {
      await auditLog.record({
        ...who,
        action: 'promo.update',
        subjectType: 'promo_code',
        subjectId: promo.id,
        meta: { promoCode: promo.code, changed },
      })
    }
    return after
  }

  async delete(id: number, who: Who) {
    const promo = await this.find(id)
    const record = presentPromoCode(promo)
    await promo.delete()
    await auditLog.record({
      ...who,
      action: 'promo.delete',
      subjectType: 'promo_code',
      subjectId: id,
      meta: { promoCode: record.code, percent: record.percent, uses: record.uses },
    })
    return record
  }
}

export const adminPromoCodes = new AdminPromoCodesService()
