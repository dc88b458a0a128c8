import type { HttpContext } from '@adonisjs/core/http'
import { accountService } from '#accounts/services/account_service'
import { billingCardService } from '#accounts/services/billing_card_service'
import { presentUserInfo, presentUserSummary } from '#accounts/services/user_presenter'
import { consumeAttempt, consumeCardAttempt } from '#core/services/rate_limits'
import { accountDeletion } from '#accounts/services/account_deletion'
import dropslotConfig from '#config/dropslot'
import type { CardSetupAction } from '#payments/gateways/payment_gateway'
import {
  billingAddressValidator,
  updateProfileValidator,
} from '#accounts/validators/account_validators'

/** The 3-D Secure challenge the storefront takes the customer through (nothing about the card). */
function presentCardAuthentication(action: CardSetupAction) {
  return {
    success: false,
    code: 'card_authentication_required',
    message: 'Your bank asks you to confirm this card.',
    authentication: {
      setupId: action.setupId,
      challengeUrl: action.challengeUrl,
      clientSecret: action.clientSecret,
    },
  }
}

export default class AccountController {
  async info({ auth }: HttpContext) {
    return presentUserInfo(auth.use('api').getUserOrFail())
  }

  async update({ auth, request }: HttpContext) {
    const { updates } = await request.validateUsing(updateProfileValidator)
    const user = await accountService.updateDetails(auth.use('api').getUserOrFail(), updates)
    return { success: true, user: presentUserInfo(user) }
  }

  async setBilling({ auth, request, response }: HttpContext) {
    const { billingAddress, token } = await request.validateUsing(billingAddressValidator)
    const customer = auth.use('api').getUserOrFail()
    // The card first: if the gateway refuses it, nothing (not even the address) is written.
    if (token) {
      await consumeCardAttempt({ ip: request.ip(), userId: customer.id })
      const saved = await billingCardService.saveTokenOrAuthenticate(customer, token)
      // The bank asks for 3-D Secure: the customer completes it, then billing/confirmCard.
      if (saved.status === 'requires_action') {
        return response.status(202).json(presentCardAuthentication(saved.action))
      }
    }
    const user = await accountService.setBillingAddress(customer, {
      line1: billingAddress.address1,
      line2: billingAddress.address2 ?? null,
      city: billingAddress.city,
      postal_code: billingAddress.zip,
      state: billingAddress.state,
      country: billingAddress.country ?? 'US',
    })
    return { success: true, user: presentUserInfo(user) }
  }

  /**
   * POST /api/user/billing/confirmCard {setupId}: after the 3-D Secure challenge, the card is
   * saved (200 with the user), still waits for the customer (202), or was refused (402).
   */
  async confirmCard({ auth, request, response }: HttpContext) {
    const user = auth.use('api').getUserOrFail()
    await consumeCardAttempt({ ip: request.ip(), userId: user.id })
    const result = await billingCardService.confirmSetup(user, request.input('setupId'))
    if (result.status === 'requires_action') {
      return response.status(202).json(presentCardAuthentication(result.action))
    }
    return { success: true, user: presentUserInfo(result.user) }
  }

  /** billing/genToken: `{encrypted}` card -> the gateway's one-time card token `{id}`. */
  async genToken({ auth, request }: HttpContext) {
    const user = auth.use('api').getUserOrFail()
    await consumeCardAttempt({ ip: request.ip(), userId: user.id })
    const token = await billingCardService.createToken(user, request.input('encrypted'))
    return {
      success: true,
      id: token.id,
      token: { id: token.id },
      card: {
        brand: token.brand,
        last4: token.last4,
        expMonth: token.expMonth,
        expYear: token.expYear,
      },
    }
  }

  /** POST /api/user/delete {password}: the account and its card data, confirmed by password. */
  async destroy({ auth, request }: HttpContext) {
    const user = auth.use('api').getUserOrFail()
    await consumeAttempt(
      'account-delete',
      { ip: request.ip(), email: user.email },
      { requests: dropslotConfig.rateLimits.loginPerMinute, duration: '1 minute' }
    )
    await accountDeletion.byCustomer(user, request.input('password'), request.ip())
    return { success: true }
  }

  async listUsers() {
    const users = await accountService.listUsers()
    return users.map(presentUserSummary)
  }
}
