import type { HttpContext } from '@adonisjs/core/http'
import vine from '@vinejs/vine'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type User from '#accounts/models/user'
import { consumeAttempt } from '#core/services/rate_limits'
import { passkeys } from '#accounts/services/passkeys'
import { secondFactor } from '#accounts/services/second_factor'
import { auditFactor } from '#accounts/services/factor_audit'
import { assertMayAddFactor } from '#accounts/services/factor_enrolment'

type TokenHolder = User & { currentAccessToken: { identifier: string | number | bigint } }

const base64url = () =>
  vine
    .string()
    .maxLength(16_384)
    .regex(/^[\w-]*$/)

/** What a browser's `startRegistration()` / `startAuthentication()` answers, capped. */
const credentialShape = {
  id: base64url().maxLength(1024),
  rawId: base64url().maxLength(1024),
  type: vine.literal('public-key'),
  clientExtensionResults: vine.object({}).allowUnknownProperties(),
  authenticatorAttachment: vine.string().maxLength(32).optional(),
}
const registerValidator = vine.compile(
  vine.object({
    name: vine.string().trim().maxLength(64).optional(),
    credential: vine.object({
      ...credentialShape,
      response: vine
        .object({
          clientDataJSON: base64url(),
          attestationObject: base64url(),
          transports: vine.array(vine.string().maxLength(32)).maxLength(8).optional(),
        })
        .allowUnknownProperties(),
    }),
  })
)
const authenticateValidator = vine.compile(
  vine.object({
    credential: vine.object({
      ...credentialShape,
      response: vine.object({
        clientDataJSON: base64url(),
        authenticatorData: base64url(),
        signature: base64url(),
        userHandle: base64url().maxLength(1024).optional(),
      }),
    }),
  })
)

const CODE_LIMIT = { requests: 5, duration: '1 minute' }
const blocked = (wait: string) => `Too many tries. Please wait ${wait} and try again.`

/**
 * Passkeys as a second factor: add one (the first factor of a new account, or another one later
 * with a factor presented in the last five minutes) and present one at sign-in. Either completes
 * the token like a TOTP code does.
 */
export default class PasskeysController {
  /** POST /api/session/passkey/register/options */
  async registrationOptions(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    await assertMayAddFactor(ctx, user)
    return passkeys.registrationOptions(user, String(user.currentAccessToken.identifier))
  }

  /** POST /api/session/passkey/register {credential, name?} */
  async register(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    await consumeAttempt('factor', { userId: user.id }, CODE_LIMIT, blocked)
    await assertMayAddFactor(ctx, user)
    const { credential, name } = await ctx.request.validateUsing(registerValidator)
    const tokenId = String(user.currentAccessToken.identifier)
    const firstFactor = (await secondFactor.stateOf(user.id)) === 'enrol'
    await passkeys.register(
      user,
      tokenId,
      credential as unknown as RegistrationResponseJSON,
      name || 'Passkey'
    )
    await secondFactor.completeToken(tokenId)
    const recoveryCodes =
      firstFactor && !(await secondFactor.hasRecoveryCodes(user.id))
        ? await secondFactor.newRecoveryCodes(user.id)
        : null
    await auditFactor(ctx, user, 'factor.enrolled', { method: 'passkey' })
    return { success: true, ...(recoveryCodes ? { recoveryCodes } : {}) }
  }

  /** POST /api/session/passkey/options */
  async authenticationOptions(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    return passkeys.authenticationOptions(user, String(user.currentAccessToken.identifier))
  }

  /** POST /api/session/passkey {credential} */
  async authenticate(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    await consumeAttempt('factor', { userId: user.id }, CODE_LIMIT, blocked)
    const { credential } = await ctx.request.validateUsing(authenticateValidator)
    const tokenId = String(user.currentAccessToken.identifier)
    try {
      await passkeys.authenticate(
        user,
        tokenId,
        credential as unknown as AuthenticationResponseJSON
      )
    } catch (error) {
      await auditFactor(ctx, user, 'factor.failed', { method: 'passkey' })
      throw error
    }
    await secondFactor.completeToken(tokenId)
    await auditFactor(ctx, user, 'factor.passed', { method: 'passkey' })
    return { success: true }
  }
}
