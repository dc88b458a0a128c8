import { randomBytes } from 'node:crypto'
import vine from '@vinejs/vine'
import type { UserRecord } from '#accounts/services/user_queries'
import { accountService } from '#accounts/services/account_service'
import { billingCardService } from '#accounts/services/billing_card_service'
import { profileService } from '#profiles/services/profile_service'
import { profileInput } from '#profiles/services/profile_input'
import { AppError } from '#core/exceptions/app_error'
import { transportEnvelope } from '#core/services/transport_envelope'
import { checkoutService, INSUFFICIENT_CHECKOUT_DATA } from '#checkout/services/checkout_service'
import type { OpenedOrder } from '#orders/services/order_lifecycle'
import { paymentService } from '#payments/services/payment_service'
import logger from '@adonisjs/core/services/logger'

/** The account the accounts services act on (the caller, or the one made for this purchase). */
type Account = Parameters<typeof billingCardService.saveToken>[0]

export const ACCOUNT_EXISTS =
  'An account with this e-mail already exists. Please log in to check out.'

const emailValidator = vine.compile(
  vine.object({
    email: vine.string().trim().maxLength(254).email().normalizeEmail({ all_lowercase: true }),
    name: vine.string().trim().minLength(1).maxLength(64),
  })
)

export type CompleteUserRequest = {
  email: unknown
  name: unknown
  productId: unknown
  stripeToken: unknown
  acoDataPayload: unknown
  style?: unknown
  size?: unknown
  promoCode?: unknown
}

/**
 * The spec's one-step path (POST /api/checkout/completeuser): find or create the customer by
 * e-mail, save the card token, store the profile from the envelope, and take the slot through
 * the same CheckoutService as every other checkout.
 *
 * Everything that can be refused without writing (the e-mail, the envelope and its profile, the
 * product and its variant, a product released or sold out) is checked first; a refusal that comes
 * later (a slot lost to a faster buyer) takes back the profile and the new account. An existing account is used only by its own signed-in
 * owner: an anonymous caller cannot put a card or an order on someone else's account, so it is
 * asked to log in. Simultaneous calls for a new e-mail create one account (the unique index on
 * e-mail decides); the others are asked to log in. For a new e-mail the card is saved at the
 * gateway before the account is created, so a declined card leaves no account behind. The new
 * account gets a random password (the customer sets one with "forgot password") and the answer
 * carries a bearer token so the storefront can go on signed in.
 */
export class CompleteUserService {
  async complete(
    caller: Account | null,
    request: CompleteUserRequest
  ): Promise<{ order: OpenedOrder; user: UserRecord; token: string | null }> {
    if (
      [
        request.email,
        request.name,
        request.productId,
        request.stripeToken,
        request.acoDataPayload,
      ].some((value) => value === undefined || value === null || value === '')
    ) {
      throw AppError.badRequest(INSUFFICIENT_CHECKOUT_DATA, 'insufficient_checkout_data')
    }
    const { email, name } = await emailValidator.validate({
      email: request.email,
      name: request.name,
    })
    const envelope = transportEnvelope.open(request.acoDataPayload, 'acoDataPayload')
    const profileData = await profileInput.newProfile(envelope.profile ?? envelope)
    const style = request.style ?? envelope.style
    const size = request.size ?? envelope.size
    const variant = await checkoutService.validateVariant(request.productId, style, size)
    const token = typeof request.stripeToken === 'string' ? request.stripeToken.trim() : ''

    let user: Account
    let issuedToken: string | null = null
    let newCustomerId: string | null = null
    if (caller) {
      if (caller.email !== email) {
        throw AppError.forbidden('You can only check out for your own account.')
      }
      user = caller
      await billingCardService.saveToken(user, token)
    } else {
      // The card first: a declined card creates no account.
      const saved = await billingCardService.saveTokenForNewAccount(email, name, token)
      newCustomerId = saved.customerId
      try {
        const created = await accountService.register({
          email,
          name,
          password: randomBytes(24).toString('base64url'),
        })
        user = created.user
        issuedToken = created.token
      } catch (error) {
        await this.deleteGatewayCustomer(newCustomerId)
        if (error instanceof AppError && error.code === 'email_taken') {
          throw AppError.conflict(ACCOUNT_EXISTS, 'account_exists')
        }
        throw error
      }
      await billingCardService.attach(user, saved)
    }

    const profile = await profileService.create(user, profileData)
    try {
      const order = await checkoutService.checkout(user, {
        productId: variant.product.id,
        style: variant.style,
        size: variant.size,
        profileId: profile.publicId,
        promoCode: request.promoCode,
      })
      return { order, user, token: issuedToken }
    } catch (error) {
      // Refused after all (the last slot went to a faster buyer between the check and the
      // purchase): what this request created is taken back, so a refusal leaves nothing behind.
      await profileService.delete(user, profile.publicId)
      if (!caller && (await accountService.discardNew(user))) {
        await this.deleteGatewayCustomer(newCustomerId)
      }
      throw error
    }
  }

  /** Takes back the customer (and card) saved at the gateway for an account that was not made. */
  private async deleteGatewayCustomer(customerId: string | null) {
    if (!customerId) return
    try {
      await paymentService.deleteCustomer({ userId: null, customerId })
    } catch (error) {
      // The refusal is what the caller must see; the ledger row shows the deletion to finish.
      logger.error({ customerId, err: error }, 'could not delete a gateway customer')
    }
  }
}

export const completeUserService = new CompleteUserService()
