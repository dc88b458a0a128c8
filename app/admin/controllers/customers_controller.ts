import type { HttpContext } from '@adonisjs/core/http'
import { adminCustomers } from '#admin/services/admin_customers_service'
import { auditLog } from '#core/services/audit_log_service'
import { sendList } from '#core/services/rest_query'
import { updateCustomerValidator } from '#admin/validators/admin_validators'
import { forbiddenForRole, requireRecentFactor } from '#core/middleware/factor_check'

export default class CustomersController {
  async index({ request, response }: HttpContext) {
    return sendList(response, await adminCustomers.list(request.qs()))
  }

  async show({ params }: HttpContext) {
    return adminCustomers.show(String(params.id).toLowerCase())
  }

  async update(ctx: HttpContext) {
    const changes = await ctx.request.validateUsing(updateCustomerValidator)
    return adminCustomers.update(String(ctx.params.id).toLowerCase(), changes, {
      ...auditLog.fromRequest(ctx),
      // A role change is the owner's, with a factor presented in the last five minutes.
      assertMayChangeRoles: async () => {
        if (await ctx.bouncer.with('StaffPolicy').denies('perform', 'staff')) {
          throw forbiddenForRole()
        }
        requireRecentFactor(ctx)
      },
    })
  }

  async destroy(ctx: HttpContext) {
    return adminCustomers.destroy(String(ctx.params.id).toLowerCase(), auditLog.fromRequest(ctx))
  }
}
