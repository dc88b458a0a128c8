import { createHash } from 'node:crypto'
import type User from '#accounts/models/user'
import { AppError } from '#core/exceptions/app_error'
import { transportEnvelope } from '#core/services/transport_envelope'
import { cardTokenValidator, INVALID_CARD } from '#accounts/validators/card_validator'
import { paymentService } from '#payments/services/payment_service'
import type { CardToken } from '#payments/gateways/payment_gateway'

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
   * gateway refuses is answered 'Please enter a valid card.' and nothing is changed.
   */
  async saveToken(user: User, token: string): Promise<User> {
    if (!/^[A-Za-z0-9_]{3,128}$/.test(token)) {
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
    this.apply(user, saved)
    await user.save()
    return user
  }

  /**
   * One-step checkout for a new e-mail: the card is saved at the gateway before the account is
   * created, so a declined card leaves no account behind. `attach` puts it on the account after.
   */
  async saveTokenForNewAccount(email: string, name: string, token: string) {
    if (!/^[A-Za-z0-9_]{3,128}$/.test(token)) {
      throw AppError.unprocessable(INVALID_CARD, { token: INVALID_CARD }, 'invalid_card')
    }
    const reference = `new-${createHash('sha256').update(email).digest('hex').slice(0, 24)}`
    return paymentService.saveCard({
      userId: null,
      userUuid: reference,
      email,
      name,
      customerId: null,
      token,
    })
  }

  async attach(user: User, saved: Awaited<ReturnType<typeof paymentService.saveCard>>) {
    this.apply(user, saved)
    await user.save()
    return user
  }

  /** Copies a saved card onto the user (not saved: billing/set saves it with the address). */
  apply(user: User, saved: Awaited<ReturnType<typeof paymentService.saveCard>>) {
    user.gatewayCustomerId = saved.customerId
    user.cardPaymentMethodId = saved.paymentMethodId
    user.cardBrand = saved.brand
    user.cardLast4 = saved.last4
    user.cardExpMonth = saved.expMonth
    user.cardExpYear = saved.expYear
  }
}

export const billingCardService = new BillingCardService()
