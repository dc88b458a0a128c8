import type { HttpContext } from '@adonisjs/core/http'
import { adminPromoCodes } from '#admin/services/admin_promo_codes_service'
import { auditLog } from '#core/services/audit_log_service'
import { sendList } from '#core/services/rest_query'
import { createPromoValidator, updatePromoValidator } from '#admin/validators/admin_validators'

export default class PromoCodesController {
  async index({ request, response }: HttpContext) {
    return sendList(response, await adminPromoCodes.list(request.qs()))
  }

  async show({ params }: HttpContext) {
    return adminPromoCodes.show(Number(params.id))
  }

  async store(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(createPromoValidator)
    return ctx.response.created(await adminPromoCodes.create(payload, auditLog.fromRequest(ctx)))
  }

  async update(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(updatePromoValidator)
    return adminPromoCodes.update(Number(ctx.params.id), payload, auditLog.fromRequest(ctx))
  }

  async destroy(ctx: HttpContext) {
    return adminPromoCodes.delete(Number(ctx.params.id), auditLog.fromRequest(ctx))
  }
}
