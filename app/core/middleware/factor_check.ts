import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'

type WithToken = { currentAccessToken?: { abilities?: string[] } }

/**
 * A token whose abilities are not `*` was issued to a staff account's password alone: it opens
 * only the second-factor routes (README, "Staff sign-in").
 */
export function refuseFactorPending(ctx: HttpContext) {
  const abilities = (ctx.auth.user as WithToken | undefined)?.currentAccessToken?.abilities
  if (abilities && !abilities.includes('*')) {
    throw new AppError('Enter the code from your authenticator to finish signing in.', {
      status: 403,
      code: 'second_factor_required',
    })
  }
}
