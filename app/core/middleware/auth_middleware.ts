import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { Authenticators } from '@adonisjs/auth/types'
import { refuseFactorPending } from '#core/middleware/factor_check'

const API_GUARD: (keyof Authenticators)[] = ['api']

/**
 * Requires a valid, unexpired bearer access token. Anonymous callers get the 401 envelope.
 * `guards`: the `api` guard (the caller as a `User` model) unless the route names another, as
 * the checkout does with `customer` (the same tokens, the caller as a plain record).
 * A token still waiting for its second factor is refused (403 `second_factor_required`) except
 * on the routes that take the factor (`factorPending: true`).
 */
export default class AuthMiddleware {
  async handle(
    ctx: HttpContext,
    next: NextFn,
    options: { guards?: (keyof Authenticators)[]; factorPending?: boolean } = {}
  ) {
    await ctx.auth.authenticateUsing(options.guards ?? API_GUARD)
    if (!options.factorPending) refuseFactorPending(ctx)
    return next()
  }
}
