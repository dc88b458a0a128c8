import { createHash } from 'node:crypto'
import type User from '#accounts/models/user'
import { AppError } from '#core/exceptions/app_error'
import { transportEnvelope } from '#core/services/transport_envelope'
import { cardTokenValidator, INVALID_CARD } from '#accounts/validators/card_validator'
import { paymentService } from '#payments/services/payment_service'
import {
  isCardSetupAction,
  type CardSetupAction,
  type CardToken,
  type SavedCard,
} from '#payments/gateways/payment_gateway'

/** A card saved, or the 3-D Secure challenge the customer must complete before it is. */
export type CardSaveResult =
  { status: 'saved'; user: User } | { status: 'requires_action'; action: CardSetupAction }

const AUTHENTICATION_NEEDED_AT_CHECKOUT =
  'Your bank asks you to confirm this card. Add it in your account first, then check out.'

/** A checkout cannot show the bank's challenge: the card is added in the account first. */
function authenticationNeededAtCheckout() {
  return new AppError(AUTHENTICATION_NEEDED_AT_CHECKOUT, {
    status: 402,
    code: 'card_authentication_required',
    errors: { card: AUTHENTICATION_NEEDED_AT_CHECKOUT },
  })
}

/** A gateway's token or setup id as it may reach us. */
const GATEWAY_ID = /^[A-Za-z0-9_]{3,128}$/

/**
 * The customer's card on file (account "Update Card" and the sign-up card step): the card is
 * turned into a gateway token (genToken), then the token is saved on the customer at the
 * gateway (billing/set). Only brand, last 4 and expiry are kept here; the number never is.
 */
export class BillingCardService {
  /** billing/genToken: opens the envelope, checks the card, returns the gateway's token. */
  async createToken(user: User | null, encrypted: unknown): Promise<CardToken> {
    const raw = transportEnvelope.open(encrypted, 'encrypted')
    let card
    try {
      card = await cardTokenValidator.validate(raw)
    } catch {
      throw AppError.unprocessable(INVALID_CARD, { card: INVALID_CARD }, 'invalid_card')
    }
    return paymentService.createCardToken(
      {
        name: card.name ?? user?.name ?? null,
        number: card.number,
        expMonth: card.exp_month as number,
        expYear: card.exp_year as number,
        cvc: card.cvc,
        addressZip: card.address_zip ?? null,
      },
      user?.id ?? null
    )
  }

  /**
   * Saves a card token as the customer's card (replacing the previous one). A card the
   * gateway refuses is answered 'Please enter a valid card.' and nothing is changed. A card
   * whose bank asks for 3-D Secure answers the challenge; the card on file stays as it was
   * until `confirmSetup` after the customer completed it.
   */
  async saveTokenOrAuthenticate(user: User, token: string): Promise<CardSaveResult> {
    if (!GATEWAY_ID.test(token)) {
      throw AppError.unprocessable(INVALID_CARD, { token: INVALID_CARD }, 'invalid_card')
    }
    const saved = await paymentService.saveCard({
      userId: user.id,
      userUuid: user.uuid,
      email: user.email,
      name: user.name,
      customerId: user.gatewayCustomerId,
      token,
    })
    if (isCardSetupAction(saved)) {
      // The customer now exists at the gateway: kept, so the confirmation (and an account
      // deletion) finds it. No card is on file until the challenge is completed.
      if (user.gatewayCustomerId !== saved.customerId) {
        user.gatewayCustomerId = saved.customerId
        await user.save()
      }
      return { status: 'requires_action', action: saved }
    }
    this.apply(user, saved)
    await user.save()
    return { status: 'saved', user }
  }

  /** Saves a card that needs no challenge; one that does is refused in words (one-step checkout). */
  async saveToken(user: User, token: string): Promise<User> {
    const result = await this.saveTokenOrAuthenticate(user, token)
    if (result.status === 'requires_action') {
      throw authenticationNeededAtCheckout()
    }
    return result.user
  }

  /**
   * billing/confirmCard: after the 3-D Secure challenge, the card becomes the card on file.
   * Still waiting for the customer: the action again. Refused: a 402 and nothing changes.
   */
  async confirmSetup(user: User, setupId: unknown): Promise<CardSaveResult> {
    if (typeof setupId !== 'string' || !GATEWAY_ID.test(setupId)) {
      throw AppError.unprocessable(
        'The card confirmation is missing.',
        { setupId: 'Required.' },
        'invalid_card_setup'
      )
    }
    if (!user.gatewayCustomerId) {
      throw AppError.notFound('There is no such card confirmation.', 'card_setup_not_found')
    }
    const outcome = await paymentService.confirmCardSetup({
      userId: user.id,
      userUuid: user.uuid,
      customerId: user.gatewayCustomerId,
      setupId,
    })
    if (isCardSetupAction(outcome)) return { status: 'requires_action', action: outcome }
    this.apply(user, outcome)
    await user.save()
    return { status: 'saved', user }
  }

  /**
   * One-step checkout for a new e-mail: the card is saved at the gateway before the account is
   * created, so a declined card leaves no account behind. `attach` puts it on the account after.
   */
  async saveTokenForNewAccount(email: string, name: string, token: string) {
    if (!GATEWAY_ID.test(token)) {
      throw AppError.unprocessable(INVALID_CARD, { token: INVALID_CARD }, 'invalid_card')
    }
    const reference = `new-${createHash('sha256').update(email).digest('hex').slice(0, 24)}`
    const saved = await paymentService.saveCard({
      userId: null,
      userUuid: reference,
      email,
      name,
      customerId: null,
      token,
    })
    if (isCardSetupAction(saved)) {
      // No account to come back to: the customer made for it is taken back at once.
      await paymentService.deleteCustomer({ userId: null, customerId: saved.customerId })
      throw authenticationNeededAtCheckout()
    }
    return saved
  }

  async attach(user: User, saved: SavedCard) {
    this.apply(user, saved)
    await user.save()
    return user
  }

  /** Copies a saved card onto the user (not saved: billing/set saves it with the address). */
  apply(user: User, saved: SavedCard) {
    user.gatewayCustomerId = saved.customerId
    user.cardPaymentMethodId = saved.paymentMethodId
    user.cardBrand = saved.brand
    user.cardLast4 = saved.last4
    user.cardFingerprint = saved.fingerprint
    user.cardExpMonth = saved.expMonth
    user.cardExpYear = saved.expYear
  }
}

export const billingCardService = new BillingCardService()
