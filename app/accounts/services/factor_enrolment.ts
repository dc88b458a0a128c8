import type { HttpContext } from '@adonisjs/core/http'
import type User from '#accounts/models/user'
import { AppError } from '#core/exceptions/app_error'
import { hasRecentFactor, stepUpRequired } from '#core/middleware/factor_check'
import { secondFactor } from '#accounts/services/second_factor'

type WithToken = { currentAccessToken?: { abilities?: string[] } }

/**
 * Who may add a factor (an authenticator or a passkey): a token still waiting for its factor
 * only when the account has none yet (its first, at enrolment; otherwise a stolen password could
 * add its own factor and pass); a full token when the account has none, or with a factor
 * presented in the last five minutes.
 */
export async function assertMayAddFactor(ctx: HttpContext, user: User) {
  const abilities = (user as WithToken).currentAccessToken?.abilities ?? []
  const hasFactor = (await secondFactor.stateOf(user.id)) === 'required'
  if (!hasFactor) return
  if (!abilities.includes('*')) {
    throw new AppError('Sign in with the factor this account already has first.', {
      status: 403,
      code: 'second_factor_required',
    })
  }
  if (!hasRecentFactor(ctx)) throw stepUpRequired()
}
