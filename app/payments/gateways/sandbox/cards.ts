import { createHmac } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { detectCardBrand, normalizeCardNumber } from '#core/helpers/cards'
import { sqlTime } from '#core/helpers/sql_time'
import {
  CardDeclinedError,
  GatewayRequestError,
  isCardSetupAction,
  type CardInput,
  type CardSetupAction,
  type CardToken,
  type SavedCard,
} from '#payments/gateways/payment_gateway'
import type { SandboxContext } from '#payments/gateways/sandbox/context'
import { idempotent } from '#payments/gateways/sandbox/idempotency_store'
import {
  insertPaymentMethod,
  newId,
  STRIPE_MESSAGES,
  type SandboxCard,
} from '#payments/gateways/sandbox/records'
import type { SandboxSetupIntents } from '#payments/gateways/sandbox/setup_intents'
import {
  SANDBOX_TEST_CARDS,
  SETUP_NEEDS_AUTHENTICATION,
} from '#payments/gateways/sandbox/test_cards'

/** Card tokens, customers and the cards saved on them. */
export class SandboxCards {
  constructor(
    private sandbox: SandboxContext,
    private setupIntents: SandboxSetupIntents
  ) {}

  /**
   * The card's fingerprint, as Stripe gives one per card number and account: a keyed hash of the
   * number under this install's sandbox secret (the number itself is never kept).
   */
  private fingerprintOf(number: string) {
    return createHmac('sha256', this.sandbox.options.webhookSecret)
      .update(`card-fingerprint:${number}`)
      .digest('base64url')
      .slice(0, 16)
  }

  async createCardToken(card: CardInput): Promise<CardToken> {
    await this.sandbox.enter()
    const number = normalizeCardNumber(card.number)
    const token = {
      id: newId('tok'),
      brand: detectCardBrand(number),
      last4: number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
    }
    await db.table('sandbox_tokens').insert({
      id: token.id,
      brand: token.brand,
      last4: token.last4,
      exp_month: token.expMonth,
      exp_year: token.expYear,
      behaviour: SANDBOX_TEST_CARDS[number] ?? 'ok',
      fingerprint: this.fingerprintOf(number),
      used_at: null,
      created_at: sqlTime(),
    })
    return token
  }

  async saveCard(input: {
    customerId: string | null
    email: string
    name: string
    reference: string
    token: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction> {
    await this.sandbox.enter()
    const saved = await idempotent(input.idempotencyKey, 'save_card', async (trx) => {
      const token = await trx.from('sandbox_tokens').where('id', input.token).forUpdate().first()
      if (!token) throw new GatewayRequestError('resource_missing', 'No such token.')
      if (token.used_at) {
        throw new GatewayRequestError('token_already_used', 'This token was already used.')
      }
      await trx.from('sandbox_tokens').where('id', token.id).update({ used_at: sqlTime() })

      const behaviour = String(token.behaviour)
      if (behaviour.startsWith('attach:')) {
        const [, code, declineCode] = behaviour.split(':')
        throw new CardDeclinedError(
          code,
          code === 'card_declined' ? declineCode : null,
          STRIPE_MESSAGES[declineCode]
        )
      }

      let customerId = input.customerId
      if (customerId) {
        const existing = await trx.from('sandbox_customers').where('id', customerId).first()
        if (!existing) throw new GatewayRequestError('resource_missing', 'No such customer.')
      } else {
        customerId = newId('cus')
        await trx.table('sandbox_customers').insert({
          id: customerId,
          email: input.email,
          name: input.name,
          reference: input.reference,
          created_at: sqlTime(),
        })
      }
      const card: SandboxCard = {
        brand: String(token.brand),
        last4: String(token.last4),
        expMonth: Number(token.exp_month),
        expYear: Number(token.exp_year),
        fingerprint: token.fingerprint ? String(token.fingerprint) : null,
      }
      if (SETUP_NEEDS_AUTHENTICATION.has(behaviour)) {
        return this.setupIntents.create(trx, customerId, card, behaviour)
      }
      const paymentMethodId = await insertPaymentMethod(trx, customerId, card, behaviour)
      return { customerId, paymentMethodId, ...card }
    })
    // A fresh pass each time it is handed out (never the one kept with a replayed answer).
    return isCardSetupAction(saved) ? this.setupIntents.withPass(saved) : saved
  }

  /** The fingerprint of a saved card (null for a card saved before fingerprints were kept). */
  async cardFingerprint(input: {
    customerId: string
    paymentMethodId: string
  }): Promise<string | null> {
    await this.sandbox.enter()
    const method = await db
      .from('sandbox_payment_methods')
      .where('id', input.paymentMethodId)
      .first()
    if (!method || method.customer_id !== input.customerId) {
      throw new GatewayRequestError('resource_missing', 'No such PaymentMethod for this customer.')
    }
    return method.fingerprint ? String(method.fingerprint) : null
  }

  async deleteCustomer(input: { customerId: string; idempotencyKey: string }): Promise<void> {
    await this.sandbox.enter()
    await idempotent(input.idempotencyKey, 'delete_customer', async (trx) => {
      await trx.from('sandbox_payment_methods').where('customer_id', input.customerId).delete()
      await trx.from('sandbox_setup_intents').where('customer_id', input.customerId).delete()
      await trx.from('sandbox_customers').where('id', input.customerId).delete()
      return { id: input.customerId, deleted: true }
    })
  }
}
