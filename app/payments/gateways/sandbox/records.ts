import { randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import type db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { sqlTime } from '#core/helpers/sql_time'

/*
| The sandbox's own records (the sandbox_* tables) and what their states mean, shared by its
| resources: ids, Stripe's wording of its errors, saved cards and the life of a hold.
*/

export const STRIPE_MESSAGES: Record<string, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  lost_card: 'Your card was declined.',
  stolen_card: 'Your card was declined.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
  authentication_required: 'Your card was declined. This transaction requires authentication.',
  payment_intent_authentication_failure:
    'The provided payment method has failed authentication. Provide a new payment method to attempt to fulfill this PaymentIntent again.',
  setup_intent_authentication_failure:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
}

export const newId = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString('hex')}`

export type SandboxCard = {
  brand: string
  last4: string
  expMonth: number
  expYear: number
  fingerprint: string | null
}

export async function insertPaymentMethod(
  trx: TransactionClientContract,
  customerId: string,
  card: SandboxCard,
  behaviour: string
) {
  const id = newId('pm')
  await trx.table('sandbox_payment_methods').insert({
    id,
    customer_id: customerId,
    brand: card.brand,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    fingerprint: card.fingerprint,
    behaviour,
    created_at: sqlTime(),
  })
  return id
}

export const PAYMENT_ID = /^pi_sbx_[0-9a-f]{24}$/

/** How long an uncaptured hold lives in the sandbox unless configured (card networks: ~7 days). */
export const DEFAULT_HOLD_EXPIRY_HOURS = 168

/** A timestamp read back from SQL (a Date on MySQL, `yyyy-MM-dd HH:mm:ss` UTC on SQLite) as ISO. */
export function isoOf(value: unknown): string | null {
  if (!value) return null
  const at = value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)
  return Number.isNaN(at.getTime()) ? null : at.toISOString()
}

/** When a hold authorised now lapses, as the sandbox stores it. */
export function captureBeforeFrom(hours: number) {
  return sqlTime(DateTime.now().plus({ milliseconds: Math.round(hours * 3_600_000) }))
}

/**
 * Holds whose authorization lapsed are cancelled by the provider (`cancellation_reason:
 * automatic`), as Stripe does after about 7 days: the sandbox does it when the intent is next
 * read or acted on, on the clock tests control.
 */
export async function lapseExpiredHold(client: Pick<typeof db, 'from'>, id: string) {
  await client
    .from('sandbox_payment_intents')
    .where('id', id)
    .where('status', 'requires_capture')
    .where('capture_before', '<=', sqlTime())
    .update({ status: 'canceled', cancellation_reason: 'automatic', updated_at: sqlTime() })
}

/** A payment held back for the customer's authentication (failing it lets them try again). */
export function awaitsAuthentication(intent: { status: string; last_error_code: string | null }) {
  return (
    intent.status === 'requires_payment_method' &&
    (intent.last_error_code === 'authentication_required' ||
      intent.last_error_code === 'payment_intent_authentication_failure')
  )
}
