import { randomUUID } from 'node:crypto'
import { AppError } from '#core/exceptions/app_error'
import {
  CardDeclinedError,
  GatewayRequestError,
  CARD_AUTHENTICATION_FAILED,
  isCardSetupAction,
  savedCardDeclinedMessage,
  type CardInput,
  type CardSetupAction,
  type CardToken,
  type SavedCard,
} from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger } from '#payments/services/ledger'
import { isRetryable, withRateLimitRetry } from '#payments/services/gateway_calls'
import { withLedger } from '#payments/services/ledger_step'
import { keysOf, paymentKeys } from '#payments/services/payment_keys'
import { INVALID_CARD } from '#shared/cards'

export type SaveCardInput = {
  /** Null while the account does not exist yet (one-step checkout saves the card first). */
  userId: number | null
  /** Our reference for the customer at the gateway: the user's uuid. */
  userUuid: string
  email: string
  name: string
  customerId: string | null
  token: string
}

export type ConfirmCardSetupInput = {
  userId: number | null
  userUuid: string
  customerId: string
  setupId: string
}

export type DeleteCustomerInput = { userId: number | null; customerId: string }

/** The ledger row of a call about the customer's card: no money moves. */
function cardRow(
  keys: { key: string; legacyKey?: string | null },
  kind: 'customer_card' | 'customer_delete',
  userId: number | null
) {
  return { ...keys, kind, gateway: gateway().name, userId, amountCents: 0 }
}

/** A card the gateway refused, in the customer's words (a 402, 422 or 503). */
function throwCardError(error: unknown): never {
  throw cardErrorToAppError(error)
}

/** The customer's card at the gateway: tokens, saving it (3-D Secure included), deleting it. */
class CardPayments {
  /** genToken: validates nothing itself (the caller did), asks the gateway for a card token. */
  async createCardToken(card: CardInput, userId: number | null): Promise<CardToken> {
    const row = cardRow({ key: paymentKeys.cardToken(randomUUID()) }, 'customer_card', userId)
    return withLedger(row, {
      call: () => withRateLimitRetry(() => gateway().createCardToken(card)),
      ref: (token) => token.id,
      done: (token) => token,
      failed: throwCardError,
    })
  }

  /**
   * Saves a card token on the customer at the gateway (creating the customer the first time).
   * A card whose bank asks for 3-D Secure first answers the action the customer must complete.
   */
  async saveCard(input: SaveCardInput): Promise<SavedCard | CardSetupAction> {
    const row = cardRow(
      keysOf('saveCard', input.userUuid, input.token),
      'customer_card',
      input.userId
    )
    return withLedger(row, {
      call: (entry) =>
        withRateLimitRetry(() =>
          gateway().saveCard({
            customerId: input.customerId,
            email: input.email,
            name: input.name,
            reference: input.userUuid,
            token: input.token,
            idempotencyKey: entry.idempotencyKey,
          })
        ),
      ref: (saved) => (isCardSetupAction(saved) ? saved.setupId : saved.paymentMethodId),
      done: (saved) => saved,
      failed: throwCardError,
    })
  }

  /**
   * After the customer's 3-D Secure challenge: the saved card, or the action again while the
   * customer has not answered. A refused authentication is a 402 in plain words; a setup of
   * another customer is a 404. Its own ledger row and key (the gateway sets the default card).
   */
  async confirmCardSetup(input: ConfirmCardSetupInput): Promise<SavedCard | CardSetupAction> {
    const row = cardRow(
      keysOf('cardSetup', input.userUuid, input.setupId),
      'customer_card',
      input.userId
    )
    return withLedger(row, {
      call: (entry) =>
        withRateLimitRetry(() =>
          gateway().confirmCardSetup({
            setupId: input.setupId,
            customerId: input.customerId,
            idempotencyKey: entry.idempotencyKey,
          })
        ),
      complete: (entry, outcome) => {
        if (isCardSetupAction(outcome)) {
          // The customer has not answered yet: the row stays open for the same key next time.
          return ledger.noteRetry(entry, 'authentication_pending', 'Waiting for the customer.')
        }
        return ledger.succeed(entry, outcome.paymentMethodId)
      },
      done: (outcome) => outcome,
      failed: (error) => {
        if (error instanceof GatewayRequestError && error.code === 'resource_missing') {
          throw AppError.notFound('There is no such card confirmation.', 'card_setup_not_found')
        }
        throwCardError(error)
      },
    })
  }

  /**
   * Deletes the customer and its saved cards at the gateway (account deletion, or a one-step
   * checkout refused after its card was saved), through the ledger like every gateway call.
   */
  async deleteCustomer(input: DeleteCustomerInput): Promise<void> {
    const row = cardRow(keysOf('deleteCustomer', input.customerId), 'customer_delete', input.userId)
    await withLedger(row, {
      prepare: (entry) =>
        entry.status === 'succeeded' ? { answer: undefined } : { using: undefined },
      call: (entry) =>
        withRateLimitRetry(() =>
          gateway().deleteCustomer({
            customerId: input.customerId,
            idempotencyKey: entry.idempotencyKey,
          })
        ),
      ref: () => input.customerId,
      done: () => undefined,
      failed: (error) => {
        throw error
      },
    })
  }
}

function cardErrorToAppError(error: unknown): unknown {
  if (error instanceof CardDeclinedError && error.authenticationFailed) {
    return new AppError(CARD_AUTHENTICATION_FAILED, {
      status: 402,
      code: 'card_authentication_failed',
      errors: { card: CARD_AUTHENTICATION_FAILED },
    })
  }
  if (error instanceof CardDeclinedError) {
    const message = savedCardDeclinedMessage(error.declineCode ?? error.code)
    return new AppError(message, {
      status: 402,
      code: 'card_declined',
      errors: { card: message },
    })
  }
  if (error instanceof GatewayRequestError && error.code !== 'gateway_misconfigured') {
    return AppError.unprocessable(INVALID_CARD, { card: INVALID_CARD }, 'invalid_card')
  }
  if (isRetryable(error)) {
    return new AppError('Our payment provider is busy. Please try again in a moment.', {
      status: 503,
      code: 'payment_provider_unavailable',
    })
  }
  return error
}

export const cardPayments = new CardPayments()
