import type Stripe from 'stripe'
import {
  CardDeclinedError,
  type CardSetupAction,
  type GatewayMoney,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentAction,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'

/*
| Stripe's objects (PaymentIntents, SetupIntents, Refunds, balance transactions) read as the
| gateway's own types.
*/

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? '')

export function normalizeBrand(brand: string | null | undefined) {
  const value = (brand ?? 'unknown').toLowerCase()
  if (value === 'american express') return 'amex'
  if (value === 'diners club') return 'diners'
  return value
}

/** When an uncaptured authorization lapses, from its expanded charge (ISO 8601), or null. */
export function captureBeforeOf(intent: Stripe.PaymentIntent): string | null {
  const charge = intent.latest_charge
  if (!charge || typeof charge !== 'object') return null
  const seconds = charge.payment_method_details?.card?.capture_before
  return typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null
}

/** A SetupIntent still waiting for the customer (Stripe.js takes them through the challenge). */
export function setupActionOf(
  setup: Stripe.SetupIntent,
  customerId: string
): CardSetupAction | null {
  if (setup.status !== 'requires_action' && setup.status !== 'requires_confirmation') return null
  return {
    status: 'requires_action',
    setupId: setup.id,
    customerId,
    clientSecret: setup.client_secret,
    challengeUrl: null,
  }
}

/** A PaymentIntent that came back without throwing but did not reach the state we asked for. */
export function settledRef(intent: Stripe.PaymentIntent, expected: string): PaymentRef {
  if (intent.status === expected) return { id: intent.id, status: intent.status }
  if (intent.status === 'requires_action' || intent.status === 'requires_confirmation') {
    throw new CardDeclinedError(
      'authentication_required',
      'authentication_required',
      'This payment requires authentication.',
      intent.id
    )
  }
  if (intent.status === 'processing') return { id: intent.id, status: intent.status }
  const lastError = intent.last_payment_error
  throw new CardDeclinedError(
    lastError?.code ?? 'card_declined',
    lastError?.decline_code ?? null,
    lastError?.message ?? 'Your card was declined.',
    intent.id
  )
}

/** A PaymentIntent read back with its latest charge expanded. */
export function gatewayPaymentOf(intent: Stripe.PaymentIntent): GatewayPayment {
  const charge =
    intent.latest_charge && typeof intent.latest_charge === 'object' ? intent.latest_charge : null
  const lastError = intent.last_payment_error
  return {
    id: intent.id,
    status: intent.status,
    amountCents: intent.amount,
    amountRefundedCents: charge?.amount_refunded ?? 0,
    captureMethod: intent.capture_method === 'automatic' ? 'automatic' : 'manual',
    metadata: { ...(intent.metadata ?? {}) },
    cancellationReason: intent.cancellation_reason ?? null,
    lastError: lastError
      ? {
          code: lastError.code ?? 'card_declined',
          declineCode: lastError.decline_code ?? null,
          message: lastError.message ?? 'Your card was declined.',
        }
      : null,
    captureBefore: captureBeforeOf(intent),
  }
}

/**
 * A hold the bank declined off-session for authentication stays on Stripe as a PaymentIntent
 * awaiting a payment method: the customer confirms it on-session with Stripe.js
 * (`confirmCardPayment` with its client secret and the saved card), then it awaits capture.
 */
export function paymentActionOf(intent: Stripe.PaymentIntent): PaymentAction | null {
  const lastError = intent.last_payment_error
  const waiting =
    intent.status === 'requires_action' ||
    (intent.status === 'requires_payment_method' &&
      (lastError?.code === 'authentication_required' ||
        lastError?.code === 'payment_intent_authentication_failure'))
  if (!waiting) return null
  const method = lastError?.payment_method ?? intent.payment_method
  return {
    paymentId: intent.id,
    challengeUrl: null,
    clientSecret: intent.client_secret,
    paymentMethodId: typeof method === 'string' ? method : (method?.id ?? null),
  }
}

export function gatewayRefundOf(refund: Stripe.Refund): GatewayRefund {
  const paymentId =
    typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent?.id
  return {
    id: refund.id,
    status: refund.status ?? 'pending',
    amountCents: refund.amount,
    paymentId: paymentId ?? '',
  }
}

/**
 * A balance transaction (its source expanded) as money moved: a charge's amount and its
 * PaymentIntent, a refund's amount (negative there, positive here) and the PaymentIntent it
 * refunds. Anything else (payouts, adjustments...) is null.
 */
export function moneyOf(transaction: Stripe.BalanceTransaction): GatewayMoney | null {
  const source = transaction.source
  if (!source || typeof source === 'string') return null
  const createdAt = new Date(transaction.created * 1000)
  if (
    (transaction.type === 'charge' || transaction.type === 'payment') &&
    source.object === 'charge'
  ) {
    const charge = source as Stripe.Charge
    return {
      type: 'charge',
      id: charge.id,
      paymentId: idOf(charge.payment_intent),
      amountCents: transaction.amount,
      orderPublicId: charge.metadata?.order_id ?? null,
      purpose: charge.metadata?.purpose ?? null,
      createdAt,
    }
  }
  if (
    (transaction.type === 'refund' || transaction.type === 'payment_refund') &&
    source.object === 'refund'
  ) {
    const refund = source as Stripe.Refund
    return {
      type: 'refund',
      id: refund.id,
      paymentId: idOf(refund.payment_intent),
      amountCents: Math.abs(transaction.amount),
      orderPublicId: refund.metadata?.order_id ?? null,
      purpose: 'refund',
      createdAt,
    }
  }
  return null
}
