import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { AppError } from '#core/exceptions/app_error'
import {
  forbiddenForRole,
  refuseFactorPending,
  requireRecentFactor,
} from '#core/middleware/factor_check'
import { permissionForRoute } from '#core/middleware/staff_routes'
import { STEP_UP_PERMISSIONS } from '#shared/staff_roles'

/**
 * Staff routes: 401 for anonymous callers, 403 for signed-in customers (the accounts module's
 * StaffPolicy decides who is staff), 403 `second_factor_required` for a staff token that has not
 * presented its second factor yet, 403 `forbidden_for_role` when the route's permission
 * (staff_routes.ts) is not the caller's role's, and 403 `step_up_required` when the permission
 * needs a factor presented in the last five minutes and the token's is older.
 */
export default class AdminMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    await ctx.auth.authenticateUsing(['api'])
    const staff = ctx.bouncer.with('StaffPolicy')
    if (await staff.denies('useConsole')) {
      throw AppError.forbidden('Staff only.')
    }
    refuseFactorPending(ctx, { staff: true })
    const permission = permissionForRoute(ctx.route?.name, ctx.request.method())
    if (await staff.denies('perform', permission)) {
      throw forbiddenForRole()
    }
    if (STEP_UP_PERMISSIONS.includes(permission)) requireRecentFactor(ctx)
    return next()
  }
}
