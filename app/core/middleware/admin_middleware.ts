import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { AppError } from '#core/exceptions/app_error'

/**
 * Admin-only routes: 401 for anonymous callers, 403 for signed-in customers (the accounts
 * module's StaffPolicy decides who is staff).
 */
export default class AdminMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    await ctx.auth.authenticateUsing(['api'])
    if (await ctx.bouncer.with('StaffPolicy').denies('useConsole')) {
      throw AppError.forbidden('Admins only.')
    }
    return next()
  }
}
