import type { HttpContext } from '@adonisjs/core/http'
import vine from '@vinejs/vine'
import type User from '#accounts/models/user'
import { consumeAttempt } from '#core/services/rate_limits'
import { secondFactor } from '#accounts/services/second_factor'
import { auditFactor } from '#accounts/services/factor_audit'
import { assertMayAddFactor } from '#accounts/services/factor_enrolment'

const codeValidator = vine.compile(vine.object({ code: vine.string().trim().maxLength(32) }))

type TokenHolder = User & { currentAccessToken: { identifier: string | number | bigint } }

/** Five codes a minute per account: six digits cannot be guessed at that pace. */
const CODE_LIMIT = { requests: 5, duration: '1 minute' }
const blocked = (wait: string) => `Too many codes tried. Please wait ${wait} and try again.`

/**
 * The second-factor routes: the only ones a password-only staff token opens. Enrol an
 * authenticator, present its code or a recovery code; either makes the token a full one.
 */
export default class SecondFactorController {
  /** POST /api/session/totp/enrol: a new secret and its otpauth:// URI (for the QR code). */
  async enrol(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail()
    await assertMayAddFactor(ctx, user)
    const enrolment = await secondFactor.enrol(user.id)
    await auditFactor(ctx, user, 'factor.enrol_started', { method: 'totp' })
    return enrolment
  }

  /** POST /api/session/totp {code}: the authenticator's current code completes the sign-in. */
  async totp(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    await consumeAttempt('factor', { userId: user.id }, CODE_LIMIT, blocked)
    const { code } = await ctx.request.validateUsing(codeValidator)
    try {
      const { recoveryCodes } = await secondFactor.presentTotp(user.id, code)
      await secondFactor.completeToken(user.currentAccessToken.identifier)
      await auditFactor(ctx, user, recoveryCodes ? 'factor.enrolled' : 'factor.passed', {
        method: 'totp',
      })
      return { success: true, ...(recoveryCodes ? { recoveryCodes } : {}) }
    } catch (error) {
      await this.recordFailure(ctx, user, 'totp')
      throw error
    }
  }

  /** POST /api/session/recovery {code}: a one-time recovery code instead of the authenticator. */
  async recovery(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    await consumeAttempt('factor', { userId: user.id }, CODE_LIMIT, blocked)
    const { code } = await ctx.request.validateUsing(codeValidator)
    try {
      await secondFactor.presentRecoveryCode(user.id, code)
    } catch (error) {
      await this.recordFailure(ctx, user, 'recovery')
      throw error
    }
    await secondFactor.completeToken(user.currentAccessToken.identifier)
    const methods = await secondFactor.methodsOf(user.id)
    await auditFactor(ctx, user, 'factor.recovery_used', {
      method: 'recovery',
      codesLeft: methods.includes('recovery'),
    })
    return { success: true }
  }

  /** POST /api/user/totp/remove {code}: a customer turns their authenticator off. */
  async remove(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail()
    await consumeAttempt('factor', { userId: user.id }, CODE_LIMIT, blocked)
    const { code } = await ctx.request.validateUsing(codeValidator)
    try {
      await secondFactor.removeOwn(user, code)
    } catch (error) {
      await this.recordFailure(ctx, user, 'totp')
      throw error
    }
    await auditFactor(ctx, user, 'factor.removed', { method: 'totp' })
    return { success: true }
  }

  private async recordFailure(ctx: HttpContext, user: User, method: string) {
    await auditFactor(ctx, user, 'factor.failed', { method })
  }
}
