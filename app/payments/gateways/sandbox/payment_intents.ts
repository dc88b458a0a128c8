import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { sqlTime } from '#core/helpers/sql_time'
import {
  CardDeclinedError,
  GatewayRequestError,
  type GatewayPayment,
  type PaymentAction,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'
import { sandboxChallengeUrl } from '#payments/gateways/sandbox/challenges'
import type { SandboxContext } from '#payments/gateways/sandbox/context'
import { idempotent } from '#payments/gateways/sandbox/idempotency_store'
import {
  awaitsAuthentication,
  captureBeforeFrom,
  DEFAULT_HOLD_EXPIRY_HOURS,
  isoOf,
  lapseExpiredHold,
  newId,
  STRIPE_MESSAGES,
} from '#payments/gateways/sandbox/records'

/** Payments (PaymentIntents): manual-capture holds, off-session fees, and reading them back. */
export class SandboxPaymentIntents {
  constructor(private sandbox: SandboxContext) {}

  async placeHold(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef> {
    await this.sandbox.enter()
    return idempotent(input.idempotencyKey, 'hold', async (trx) => {
      const ref = await this.create(trx, { ...input, captureMethod: 'manual' })
      const intent = await trx.from('sandbox_payment_intents').where('id', ref.id).first()
      return { ...ref, captureBefore: isoOf(intent?.capture_before) }
    })
  }

  async releaseHold(input: { paymentId: string; idempotencyKey: string }): Promise<PaymentRef> {
    await this.sandbox.enter()
    return idempotent(input.idempotencyKey, 'cancel', async (trx) => {
      await lapseExpiredHold(trx, input.paymentId)
      const intent = await trx
        .from('sandbox_payment_intents')
        .where('id', input.paymentId)
        .forUpdate()
        .first()
      if (!intent) throw new GatewayRequestError('resource_missing', 'No such payment_intent.')
      if (intent.status === 'canceled') return { id: intent.id, status: 'canceled' }
      // Like Stripe: a hold awaiting capture, or one still waiting for authentication.
      if (intent.status !== 'requires_capture' && intent.status !== 'requires_payment_method') {
        throw new GatewayRequestError(
          'payment_intent_unexpected_state',
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`
        )
      }
      await trx
        .from('sandbox_payment_intents')
        .where('id', intent.id)
        .update({ status: 'canceled', cancellation_reason: 'abandoned', updated_at: sqlTime() })
      return { id: String(intent.id), status: 'canceled' }
    })
  }

  async chargeFee(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    description: string
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef> {
    await this.sandbox.enter()
    return idempotent(input.idempotencyKey, 'charge', (trx) =>
      this.create(trx, { ...input, captureMethod: 'automatic' })
    )
  }

  async retrievePayment(id: string): Promise<GatewayPayment | null> {
    await this.sandbox.enter()
    await lapseExpiredHold(db, id)
    const row = await db.from('sandbox_payment_intents').where('id', id).first()
    if (!row) return null
    return {
      id: String(row.id),
      status: String(row.status),
      amountCents: Number(row.amount),
      amountRefundedCents: Number(row.amount_refunded),
      captureMethod: row.capture_method === 'manual' ? 'manual' : 'automatic',
      metadata: row.metadata ? JSON.parse(row.metadata) : {},
      cancellationReason: row.cancellation_reason ?? null,
      lastError: row.last_error_code
        ? {
            code: String(row.last_error_code),
            declineCode: row.last_decline_code ?? null,
            message: String(row.last_error_message ?? ''),
          }
        : null,
      captureBefore: row.capture_method === 'manual' ? isoOf(row.capture_before) : null,
    }
  }

  async paymentAction(paymentId: string): Promise<PaymentAction | null> {
    await this.sandbox.enter()
    await lapseExpiredHold(db, paymentId)
    const intent = await db.from('sandbox_payment_intents').where('id', paymentId).first()
    if (!intent || !awaitsAuthentication(intent)) return null
    return {
      paymentId: String(intent.id),
      challengeUrl: sandboxChallengeUrl(
        this.sandbox.options.webhookSecret,
        String(intent.id),
        String(intent.customer_id)
      ),
      clientSecret: null,
      paymentMethodId: String(intent.payment_method_id),
    }
  }

  /** A payment intent as the sandbox keeps it (tests, and the admin's view of the sandbox). */
  async findIntent(id: string) {
    await lapseExpiredHold(db, id)
    return db.from('sandbox_payment_intents').where('id', id).first()
  }

  private async create(
    trx: TransactionClientContract,
    input: {
      customerId: string
      paymentMethodId: string
      amountCents: number
      metadata: Record<string, string>
      captureMethod: 'manual' | 'automatic'
    }
  ): Promise<PaymentRef> {
    if (!Number.isInteger(input.amountCents) || input.amountCents < 50) {
      throw new GatewayRequestError('amount_too_small', 'Amount must be at least 50 cents.')
    }
    const method = await trx
      .from('sandbox_payment_methods')
      .where('id', input.paymentMethodId)
      .first()
    if (!method || method.customer_id !== input.customerId) {
      throw new GatewayRequestError('resource_missing', 'No such PaymentMethod for this customer.')
    }
    const decline =
      method.behaviour === 'decline_charges'
        ? new CardDeclinedError('card_declined', 'generic_decline', STRIPE_MESSAGES.generic_decline)
        : method.behaviour === 'auth_required'
          ? new CardDeclinedError(
              'authentication_required',
              'authentication_required',
              STRIPE_MESSAGES.authentication_required
            )
          : null
    const id = newId('pi')
    // A declined payment is kept too, as the provider keeps it: awaiting another payment method.
    const status = decline
      ? 'requires_payment_method'
      : input.captureMethod === 'manual'
        ? 'requires_capture'
        : 'succeeded'
    await trx.table('sandbox_payment_intents').insert({
      id,
      customer_id: input.customerId,
      payment_method_id: input.paymentMethodId,
      amount: input.amountCents,
      currency: 'usd',
      capture_method: input.captureMethod,
      status,
      amount_refunded: 0,
      metadata: JSON.stringify(input.metadata),
      card_fingerprint: method.fingerprint ?? null,
      capture_before:
        status === 'requires_capture'
          ? captureBeforeFrom(this.sandbox.options.holdExpiryHours ?? DEFAULT_HOLD_EXPIRY_HOURS)
          : null,
      last_error_code: decline?.code ?? null,
      last_decline_code: decline?.declineCode ?? null,
      last_error_message: decline?.message ?? null,
      created_at: sqlTime(),
      updated_at: sqlTime(),
    })
    if (decline) {
      decline.paymentId = id
      throw decline
    }
    return { id, status, cardFingerprint: method.fingerprint ? String(method.fingerprint) : null }
  }
}
