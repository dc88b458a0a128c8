import { AppError } from '#core/exceptions/app_error'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { promoCodeList } from '#admin/services/list_definitions'
import { presentPromoCode } from '#admin/services/presenters'
import { runList } from '#core/services/rest_query'
import { promoCodeService, type PromoFields } from '#checkout/services/promo_code_service'

type Who = Pick<AuditEntry, 'actor' | 'ip'>

/** The console's promo codes: checkout writes them and keeps their rules; this audits and presents. */
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

  async create(fields: PromoFields, who: Who) {
    const promo = await promoCodeService.create(fields)
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
    const before = presentPromoCode(await this.find(id))
    const promo = await promoCodeService.update(id, changes)
    if (!promo) throw AppError.notFound('Promo code not found.', 'promo_not_found')
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
    if (!(await promoCodeService.remove(id))) {
      throw AppError.notFound('Promo code not found.', 'promo_not_found')
    }
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
