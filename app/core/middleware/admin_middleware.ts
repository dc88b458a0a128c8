import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { AppError } from '#core/exceptions/app_error'
import { refuseFactorPending } from '#core/middleware/factor_check'

/**
 * Admin-only routes: 401 for anonymous callers, 403 for signed-in customers (the accounts
 * module's StaffPolicy decides who is staff), 403 `second_factor_required` for a staff token
 * that has not presented its second factor yet.
 */
export default class AdminMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    await ctx.auth.authenticateUsing(['api'])
    refuseFactorPending(ctx)
    if (await ctx.bouncer.with('StaffPolicy').denies('useConsole')) {
      throw AppError.forbidden('Admins only.')
    }
    return next()
  }
}
