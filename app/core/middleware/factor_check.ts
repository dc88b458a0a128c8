import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { clock } from '#core/services/clock'
import { STEP_UP_WINDOW_MS } from '#shared/staff_roles'

type WithToken = { currentAccessToken?: { abilities?: string[]; factorAt?: Date | null } }

const tokenOf = (ctx: Pick<HttpContext, 'auth'>) =>
  (ctx.auth.user as WithToken | undefined)?.currentAccessToken

/**
 * A token whose abilities are not `*` was issued to a staff account's password alone: it opens
 * only the second-factor routes (docs/security.md, "Staff sign-in"). `staff`: the route is a staff one.
 */
export function refuseFactorPending(ctx: HttpContext, options: { staff?: boolean } = {}) {
  const token = tokenOf(ctx)
  const pending = token?.abilities && !token.abilities.includes('*')
  // Staff routes also need a factor presented on this very token: a customer's token kept by
  // someone made staff since, or any token that never saw one, opens nothing there.
  if (pending || (options.staff && !token?.factorAt)) {
    throw new AppError('Enter the code from your authenticator to finish signing in.', {
      status: 403,
      code: 'second_factor_required',
    })
  }
}

/** Whether this request's token presented a second factor within the last five minutes. */
export function hasRecentFactor(ctx: Pick<HttpContext, 'auth'>): boolean {
  const factorAt = tokenOf(ctx)?.factorAt
  return Boolean(factorAt) && clock.nowMs() - factorAt!.getTime() <= STEP_UP_WINDOW_MS
}

/** The step-up refusal: the most dangerous actions need the factor again after five minutes. */
export function stepUpRequired() {
  return new AppError('Enter your authenticator code again to do this.', {
    status: 403,
    code: 'step_up_required',
  })
}

export function requireRecentFactor(ctx: Pick<HttpContext, 'auth'>) {
  if (!hasRecentFactor(ctx)) throw stepUpRequired()
}

/** A staff member whose role does not hold what the route or action needs. */
export function forbiddenForRole() {
  return new AppError('Your role does not allow this.', {
    status: 403,
    code: 'forbidden_for_role',
  })
}
