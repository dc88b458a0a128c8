import { createHmac, randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { DateTime } from 'luxon'
import paymentsConfig from '#config/payments'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { detectCardBrand, normalizeCardNumber } from '#core/helpers/cards'
import { isUniqueViolation } from '#core/helpers/db_errors'
import {
  CardDeclinedError,
  GatewayRequestError,
  GatewayUnavailableError,
  isCardSetupAction,
  type CardInput,
  type CardSetupAction,
  type CardToken,
  type GatewayEvent,
  type GatewayMoney,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentAction,
  type PaymentGateway,
  type PaymentRef,
  type SavedCard,
} from '#payments/gateways/payment_gateway'
import { verifyStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { signChallengePass } from '#payments/gateways/sandbox_challenge_tokens'
import { countRateLimited } from '#payments/gateways/rate_limit_signal'

/*
| What a test card does, following Stripe's documented test cards. Any other valid number works.
*/
type Behaviour =
  | 'ok'
  | 'decline_charges'
  | 'auth_required'
  | 'auth_setup'
  | `attach:${'card_declined' | 'expired_card' | 'incorrect_cvc' | 'processing_error'}:${string}`

export const SANDBOX_TEST_CARDS: Record<string, Behaviour> = {
  '4242424242424242': 'ok',
  '5555555555554444': 'ok',
  '4000002500003155': 'auth_setup', // authenticated when saved, then off-session payments succeed
  '4000000000000002': 'attach:card_declined:generic_decline',
  '4000000000009995': 'attach:card_declined:insufficient_funds',
  '4000000000009987': 'attach:card_declined:lost_card',
  '4000000000009979': 'attach:card_declined:stolen_card',
  '4000000000000069': 'attach:expired_card:expired_card',
  '4000000000000127': 'attach:incorrect_cvc:incorrect_cvc',
  '4000000000000119': 'attach:processing_error:processing_error',
  '4000000000000341': 'decline_charges', // attaching succeeds, every payment fails
  '4000002760003184': 'auth_required', // authenticated when saved, and every payment needs it too
}

const STRIPE_MESSAGES: Record<string, string> = {
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

type StoredResponse =
  | { ok: unknown }
  | {
      error: {
        kind: 'declined' | 'request'
        code: string
        declineCode: string | null
        message: string
        paymentId?: string | null
      }
    }

const newId = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString('hex')}`

/** Cards whose bank asks the customer to authenticate (3-D Secure) before they are saved. */
const SETUP_NEEDS_AUTHENTICATION = new Set(['auth_setup', 'auth_required'])

/** The sandbox's 3-D Secure challenge page (served by this app, sandbox only), without its pass. */
export const sandboxChallengePath = (id: string) => `/sandbox/3ds/${id}`

/**
 * The challenge page's address for its customer: the page and a signed, short-lived pass bound
 * to this setup or payment and its customer (`sandbox_challenge_tokens.ts`), keyed by this
 * install's sandbox secret.
 */
export function sandboxChallengeUrl(sandboxSecret: string, id: string, customerId: string) {
  const pass = signChallengePass(sandboxSecret, id, customerId, clock.nowMs())
  return `${sandboxChallengePath(id)}?t=${pass}`
}

function presentSetupAction(setup: { id: string; customer_id: string }): CardSetupAction {
  return {
    status: 'requires_action',
    setupId: String(setup.id),
    customerId: String(setup.customer_id),
    clientSecret: null,
    challengeUrl: sandboxChallengePath(String(setup.id)),
  }
}

type SandboxCard = {
  brand: string
  last4: string
  expMonth: number
  expYear: number
  fingerprint: string | null
}

async function insertPaymentMethod(
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

const PAYMENT_ID = /^pi_sbx_[0-9a-f]{24}$/

/** How long an uncaptured hold lives in the sandbox unless configured (card networks: ~7 days). */
const DEFAULT_HOLD_EXPIRY_HOURS = 168

/** A timestamp read back from SQL (a Date on MySQL, `yyyy-MM-dd HH:mm:ss` UTC on SQLite) as ISO. */
function isoOf(value: unknown): string | null {
  if (!value) return null
  const at = value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)
  return Number.isNaN(at.getTime()) ? null : at.toISOString()
}

/** When a hold authorised now lapses, as the sandbox stores it. */
function captureBeforeFrom(hours: number) {
  return sqlTime(DateTime.now().plus({ milliseconds: Math.round(hours * 3_600_000) }))
}

/**
 * Holds whose authorization lapsed are cancelled by the provider (`cancellation_reason:
 * automatic`), as Stripe does after about 7 days: the sandbox does it when the intent is next
 * read or acted on, on the clock tests control.
 */
async function lapseExpiredHold(client: Pick<typeof db, 'from'>, id: string) {
  await client
    .from('sandbox_payment_intents')
    .where('id', id)
    .where('status', 'requires_capture')
    .where('capture_before', '<=', sqlTime())
    .update({ status: 'canceled', cancellation_reason: 'automatic', updated_at: sqlTime() })
}

/** A payment held back for the customer's authentication (failing it lets them try again). */
function awaitsAuthentication(intent: { status: string; last_error_code: string | null }) {
  return (
    intent.status === 'requires_payment_method' &&
    (intent.last_error_code === 'authentication_required' ||
      intent.last_error_code === 'payment_intent_authentication_failure')
  )
}

async function findPaymentChallenge(id: string): Promise<SandboxChallenge | null> {
  await lapseExpiredHold(db, id)
  const intent = await db.from('sandbox_payment_intents').where('id', id).first()
  if (!intent) return null
  const method = await db
    .from('sandbox_payment_methods')
    .where('id', intent.payment_method_id)
    .first()
  return {
    id: String(intent.id),
    customerId: String(intent.customer_id),
    kind: 'payment',
    amountCents: Number(intent.amount),
    status: awaitsAuthentication(intent)
      ? 'requires_action'
      : ['requires_capture', 'succeeded'].includes(intent.status)
        ? 'succeeded'
        : 'failed',
    brand: String(method?.brand ?? 'card'),
    last4: String(method?.last4 ?? '····'),
  }
}

/**
 * The customer's answer for a payment: authenticated, it goes through (a hold awaits capture);
 * failed, it stays waiting with the failure recorded, as Stripe lets the customer try again.
 */
async function answerPaymentChallenge(
  id: string,
  authenticated: boolean,
  holdExpiryHours = paymentsConfig.sandbox.holdExpiryHours
) {
  await db.transaction(async (trx) => {
    const intent = await trx.from('sandbox_payment_intents').where('id', id).forUpdate().first()
    if (!intent || !awaitsAuthentication(intent)) return
    await trx
      .from('sandbox_payment_intents')
      .where('id', id)
      .update(
        authenticated
          ? {
              status: intent.capture_method === 'manual' ? 'requires_capture' : 'succeeded',
              capture_before:
                intent.capture_method === 'manual' ? captureBeforeFrom(holdExpiryHours) : null,
              last_error_code: null,
              last_decline_code: null,
              last_error_message: null,
              updated_at: sqlTime(),
            }
          : {
              last_error_code: 'payment_intent_authentication_failure',
              last_decline_code: null,
              last_error_message: STRIPE_MESSAGES.payment_intent_authentication_failure,
              updated_at: sqlTime(),
            }
      )
  })
  const challenge = await findPaymentChallenge(id)
  // A failed answer is shown as failed, even though the customer may try again later.
  if (challenge && !authenticated && challenge.status === 'requires_action') {
    return { ...challenge, status: 'failed' as const }
  }
  return challenge
}

export type SandboxChallenge = {
  kind?: 'setup' | 'payment'
  amountCents?: number
  id: string
  /** The customer at the gateway whose setup or payment it is (the pass is bound to them). */
  customerId: string
  status: 'requires_action' | 'succeeded' | 'failed'
  brand: string
  last4: string
}

/**
 * The customer's side of the sandbox's 3-D Secure stand-in (the challenge page): what is being
 * authenticated, and the customer's answer. Completing a setup attaches the card to the
 * customer (the setup succeeds); failing it leaves no usable card. Answering twice changes nothing.
 */
export const sandboxChallenges = {
  async find(id: string): Promise<SandboxChallenge | null> {
    if (PAYMENT_ID.test(id)) return findPaymentChallenge(id)
    if (!/^seti_sbx_[0-9a-f]{24}$/.test(id)) return null
    const setup = await db.from('sandbox_setup_intents').where('id', id).first()
    if (!setup) return null
    return {
      id: String(setup.id),
      customerId: String(setup.customer_id),
      status:
        setup.status === 'requires_action' || setup.status === 'succeeded'
          ? setup.status
          : 'failed',
      brand: String(setup.brand),
      last4: String(setup.last4),
    }
  },

  async answer(id: string, authenticated: boolean): Promise<SandboxChallenge | null> {
    if (PAYMENT_ID.test(id)) return answerPaymentChallenge(id, authenticated)
    if (!/^seti_sbx_[0-9a-f]{24}$/.test(id)) return null
    await db.transaction(async (trx) => {
      const setup = await trx.from('sandbox_setup_intents').where('id', id).forUpdate().first()
      if (!setup || setup.status !== 'requires_action') return
      if (!authenticated) {
        await trx.from('sandbox_setup_intents').where('id', id).update({
          status: 'requires_payment_method',
          last_error_code: 'setup_intent_authentication_failure',
          updated_at: sqlTime(),
        })
        return
      }
      const paymentMethodId = await insertPaymentMethod(
        trx,
        String(setup.customer_id),
        {
          brand: String(setup.brand),
          last4: String(setup.last4),
          expMonth: Number(setup.exp_month),
          expYear: Number(setup.exp_year),
          fingerprint: setup.fingerprint ? String(setup.fingerprint) : null,
        },
        String(setup.behaviour)
      )
      await trx.from('sandbox_setup_intents').where('id', id).update({
        status: 'succeeded',
        payment_method_id: paymentMethodId,
        updated_at: sqlTime(),
      })
    })
    return this.find(id)
  },
}

/**
 * The embedded payment gateway: real, persistent state in our database with Stripe's semantics
 * (customers, saved cards, manual-capture holds, off-session charges, refunds, idempotent
 * replays, 429s past the request rate) and Stripe's test cards. Nothing leaves the machine.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const
  private tokens: number
  private refilledAt = Date.now()

  constructor(
    private options: {
      latencyMs: number
      requestsPerSecond: number
      webhookSecret: string
      webhookToleranceSeconds: number
      /** An uncaptured hold lapses this long after it was authorised (default 168). */
      holdExpiryHours?: number
      /**
       * The budget shared by every process (a real gateway counts per account, not per
       * caller): true when this request fits in the current second. Unset: this process's own.
       */
      sharedBudget?: (requestsPerSecond: number) => Promise<boolean>
    }
  ) {
    this.tokens = options.requestsPerSecond
  }

  /**
   * The card's fingerprint, as Stripe gives one per card number and account: a keyed hash of the
   * number under this install's sandbox secret (the number itself is never kept).
   */
  private fingerprintOf(number: string) {
    return createHmac('sha256', this.options.webhookSecret)
      .update(`card-fingerprint:${number}`)
      .digest('base64url')
      .slice(0, 16)
  }

  async createCardToken(card: CardInput): Promise<CardToken> {
    await this.enter()
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
    await this.enter()
    const saved = await this.idempotent(input.idempotencyKey, 'save_card', async (trx) => {
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
        return this.createSetup(trx, customerId, card, behaviour)
      }
      const paymentMethodId = await insertPaymentMethod(trx, customerId, card, behaviour)
      return { customerId, paymentMethodId, ...card }
    })
    // A fresh pass each time it is handed out (never the one kept with a replayed answer).
    return isCardSetupAction(saved) ? this.withPass(saved) : saved
  }

  /** The action with the challenge link its customer may open now. */
  private withPass(action: CardSetupAction): CardSetupAction {
    return {
      ...action,
      challengeUrl: sandboxChallengeUrl(
        this.options.webhookSecret,
        action.setupId,
        action.customerId
      ),
    }
  }

  /** A card saved after the customer's authentication: read back, like a SetupIntent. */
  async confirmCardSetup(input: {
    setupId: string
    customerId: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction> {
    await this.enter()
    const setup = await db.from('sandbox_setup_intents').where('id', input.setupId).first()
    if (!setup || setup.customer_id !== input.customerId) {
      throw new GatewayRequestError('resource_missing', 'No such setup_intent.')
    }
    if (setup.status === 'requires_action') return this.withPass(presentSetupAction(setup))
    if (setup.status !== 'succeeded' || !setup.payment_method_id) {
      throw new CardDeclinedError(
        setup.last_error_code ?? 'setup_intent_authentication_failure',
        null,
        STRIPE_MESSAGES.setup_intent_authentication_failure
      )
    }
    return {
      customerId: String(setup.customer_id),
      paymentMethodId: String(setup.payment_method_id),
      brand: String(setup.brand),
      last4: String(setup.last4),
      expMonth: Number(setup.exp_month),
      expYear: Number(setup.exp_year),
      fingerprint: setup.fingerprint ? String(setup.fingerprint) : null,
    }
  }

  /** The fingerprint of a saved card (null for a card saved before fingerprints were kept). */
  async cardFingerprint(input: {
    customerId: string
    paymentMethodId: string
  }): Promise<string | null> {
    await this.enter()
    const method = await db
      .from('sandbox_payment_methods')
      .where('id', input.paymentMethodId)
      .first()
    if (!method || method.customer_id !== input.customerId) {
      throw new GatewayRequestError('resource_missing', 'No such PaymentMethod for this customer.')
    }
    return method.fingerprint ? String(method.fingerprint) : null
  }

  private async createSetup(
    trx: TransactionClientContract,
    customerId: string,
    card: SandboxCard,
    behaviour: string
  ): Promise<CardSetupAction> {
    const setup = {
      id: newId('seti'),
      customer_id: customerId,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: card.fingerprint,
      // Once authenticated, a 3155 card pays off-session; a 3184 card still asks every time.
      behaviour: behaviour === 'auth_setup' ? 'ok' : behaviour,
      status: 'requires_action',
      payment_method_id: null,
      last_error_code: null,
      created_at: sqlTime(),
      updated_at: sqlTime(),
    }
    await trx.table('sandbox_setup_intents').insert(setup)
    return presentSetupAction(setup)
  }

  async deleteCustomer(input: { customerId: string; idempotencyKey: string }): Promise<void> {
    await this.enter()
    await this.idempotent(input.idempotencyKey, 'delete_customer', async (trx) => {
      await trx.from('sandbox_payment_methods').where('customer_id', input.customerId).delete()
      await trx.from('sandbox_setup_intents').where('customer_id', input.customerId).delete()
      await trx.from('sandbox_customers').where('id', input.customerId).delete()
      return { id: input.customerId, deleted: true }
    })
  }

  async placeHold(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef> {
    await this.enter()
    return this.idempotent(input.idempotencyKey, 'hold', async (trx) => {
      const ref = await this.createIntent(trx, { ...input, captureMethod: 'manual' })
      const intent = await trx.from('sandbox_payment_intents').where('id', ref.id).first()
      return { ...ref, captureBefore: isoOf(intent?.capture_before) }
    })
  }

  async releaseHold(input: { paymentId: string; idempotencyKey: string }): Promise<PaymentRef> {
    await this.enter()
    return this.idempotent(input.idempotencyKey, 'cancel', async (trx) => {
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
    await this.enter()
    return this.idempotent(input.idempotencyKey, 'charge', (trx) =>
      this.createIntent(trx, { ...input, captureMethod: 'automatic' })
    )
  }

  async refund(input: {
    paymentId: string
    amountCents?: number
    idempotencyKey: string
  }): Promise<PaymentRef> {
    await this.enter()
    return this.idempotent(input.idempotencyKey, 'refund', async (trx) => {
      const intent = await trx
        .from('sandbox_payment_intents')
        .where('id', input.paymentId)
        .forUpdate()
        .first()
      if (!intent) throw new GatewayRequestError('resource_missing', 'No such payment_intent.')
      if (intent.status !== 'succeeded') {
        throw new GatewayRequestError(
          'charge_not_refundable',
          'This PaymentIntent does not have a successful charge to refund.'
        )
      }
      const remaining = Number(intent.amount) - Number(intent.amount_refunded)
      const amount = input.amountCents ?? remaining
      if (amount <= 0 || amount > remaining) {
        throw new GatewayRequestError(
          'charge_already_refunded',
          'The amount is greater than what is left to refund.'
        )
      }
      const id = newId('re')
      await trx.table('sandbox_refunds').insert({
        id,
        payment_intent_id: intent.id,
        amount,
        status: 'succeeded',
        created_at: sqlTime(),
      })
      await trx
        .from('sandbox_payment_intents')
        .where('id', intent.id)
        .update({ amount_refunded: Number(intent.amount_refunded) + amount, updated_at: sqlTime() })
      return { id, status: 'succeeded' }
    })
  }

  parseWebhook(rawBody: string, signature: string | undefined): GatewayEvent {
    return verifyStripeStyleWebhook(
      rawBody,
      signature,
      this.options.webhookSecret,
      this.options.webhookToleranceSeconds
    )
  }

  async retrievePayment(id: string): Promise<GatewayPayment | null> {
    await this.enter()
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

  async retrieveRefund(id: string): Promise<GatewayRefund | null> {
    await this.enter()
    const row = await db.from('sandbox_refunds').where('id', id).first()
    if (!row) return null
    return {
      id: String(row.id),
      status: String(row.status),
      amountCents: Number(row.amount),
      paymentId: String(row.payment_intent_id),
    }
  }

  async paymentAction(paymentId: string): Promise<PaymentAction | null> {
    await this.enter()
    await lapseExpiredHold(db, paymentId)
    const intent = await db.from('sandbox_payment_intents').where('id', paymentId).first()
    if (!intent || !awaitsAuthentication(intent)) return null
    return {
      paymentId: String(intent.id),
      challengeUrl: sandboxChallengeUrl(
        this.options.webhookSecret,
        String(intent.id),
        String(intent.customer_id)
      ),
      clientSecret: null,
      paymentMethodId: String(intent.payment_method_id),
    }
  }

  /**
   * The sandbox's own records of money moved since a time: the payments it captured (a fee; a
   * captured $1.00 check would show here too) and its refunds, as its tables hold them.
   */
  async moneyMoved(since: Date): Promise<GatewayMoney[]> {
    await this.enter()
    const from = sqlTime(since)
    const [charges, refunds] = await Promise.all([
      db
        .from('sandbox_payment_intents')
        .where('status', 'succeeded')
        .where('created_at', '>=', from)
        .select('id', 'amount', 'metadata', 'created_at')
        .orderBy('created_at', 'asc'),
      db
        .from('sandbox_refunds')
        .join(
          'sandbox_payment_intents',
          'sandbox_payment_intents.id',
          'sandbox_refunds.payment_intent_id'
        )
        .where('sandbox_refunds.status', 'succeeded')
        .where('sandbox_refunds.created_at', '>=', from)
        .select(
          'sandbox_refunds.id',
          'sandbox_refunds.amount',
          'sandbox_refunds.payment_intent_id',
          'sandbox_refunds.created_at',
          'sandbox_payment_intents.metadata'
        )
        .orderBy('sandbox_refunds.created_at', 'asc'),
    ])
    const metadataOf = (raw: string | null) => {
      try {
        return (raw ? JSON.parse(raw) : {}) as Record<string, string>
      } catch {
        return {}
      }
    }
    const at = (value: unknown) =>
      value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)
    return [
      ...charges.map((row): GatewayMoney => {
        const metadata = metadataOf(row.metadata)
        return {
          type: 'charge',
          id: String(row.id),
          paymentId: String(row.id),
          amountCents: Number(row.amount),
          orderPublicId: metadata.order_id ?? null,
          purpose: metadata.purpose ?? null,
          createdAt: at(row.created_at),
        }
      }),
      ...refunds.map((row): GatewayMoney => {
        const metadata = metadataOf(row.metadata)
        return {
          type: 'refund',
          id: String(row.id),
          paymentId: String(row.payment_intent_id),
          amountCents: Number(row.amount),
          orderPublicId: metadata.order_id ?? null,
          purpose: 'refund',
          createdAt: at(row.created_at),
        }
      }),
    ]
  }

  /** A payment intent as the sandbox keeps it (tests, and the admin's view of the sandbox). */
  async findIntent(id: string) {
    await lapseExpiredHold(db, id)
    return db.from('sandbox_payment_intents').where('id', id).first()
  }

  private async createIntent(
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
          ? captureBeforeFrom(this.options.holdExpiryHours ?? DEFAULT_HOLD_EXPIRY_HOURS)
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

  /**
   * The requests-per-second limit, counted when the request is sent, then the latency, before
   * any work, like a remote API.
   */
  private async enter() {
    await this.admit()
    if (this.options.latencyMs > 0) await sleep(this.options.latencyMs)
  }

  private async admit() {
    if (this.options.sharedBudget) {
      const fits = await this.options.sharedBudget(this.options.requestsPerSecond).catch(() => {
        throw new GatewayUnavailableError(
          'api_connection_error',
          'The payment service could not be reached.'
        )
      })
      if (!fits) {
        countRateLimited('sandbox')
        throw new GatewayUnavailableError(
          'rate_limited',
          'Too many requests hit the API too quickly.'
        )
      }
      return
    }
    const now = Date.now()
    const rate = this.options.requestsPerSecond
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate)
    this.refilledAt = now
    if (this.tokens < 1) {
      countRateLimited('sandbox')
      throw new GatewayUnavailableError(
        'rate_limited',
        'Too many requests hit the API too quickly.'
      )
    }
    this.tokens -= 1
  }

  /**
   * Runs an operation once per idempotency key, in one transaction with the record of its
   * outcome: the same key later gets the same answer (declines included), as Stripe does.
   */
  private async idempotent<T>(
    key: string,
    operation: string,
    run: (trx: TransactionClientContract) => Promise<T>
  ): Promise<T> {
    if (!key)
      throw new GatewayRequestError('idempotency_key_missing', 'An idempotency key is required.')
    const previous = await db.from('sandbox_requests').where('idempotency_key', key).first()
    if (previous) return this.replay<T>(previous, operation)

    let stored: StoredResponse
    try {
      stored = await db.transaction(async (trx) => {
        await trx.table('sandbox_requests').insert({
          idempotency_key: key,
          operation,
          state: 'done',
          response: null,
          created_at: sqlTime(),
        })
        let response: StoredResponse
        try {
          response = { ok: await run(trx) }
        } catch (error) {
          if (error instanceof CardDeclinedError) {
            response = {
              error: {
                kind: 'declined',
                code: error.code,
                declineCode: error.declineCode,
                message: error.message,
                paymentId: error.paymentId,
              },
            }
          } else if (error instanceof GatewayRequestError) {
            response = {
              error: {
                kind: 'request',
                code: error.code,
                declineCode: null,
                message: error.message,
              },
            }
          } else {
            throw error
          }
        }
        await trx
          .from('sandbox_requests')
          .where('idempotency_key', key)
          .update({ response: JSON.stringify(response) })
        return response
      })
    } catch (error) {
      if (isUniqueViolation(error)) {
        const winner = await db.from('sandbox_requests').where('idempotency_key', key).first()
        if (winner) return this.replay<T>(winner, operation)
      }
      throw error
    }
    return this.unwrap<T>(stored)
  }

  private replay<T>(row: { operation: string; response: string | null }, operation: string): T {
    if (row.operation !== operation) {
      throw new GatewayRequestError(
        'idempotency_key_in_use',
        'Keys for idempotent requests can only be used with the same parameters they were first used with.'
      )
    }
    if (!row.response) {
      throw new GatewayUnavailableError(
        'idempotency_key_in_use',
        'A request with this key is in flight.'
      )
    }
    return this.unwrap<T>(JSON.parse(row.response) as StoredResponse)
  }

  private unwrap<T>(stored: StoredResponse): T {
    if ('ok' in stored) return stored.ok as T
    const { kind, code, declineCode, message, paymentId } = stored.error
    if (kind === 'declined') throw new CardDeclinedError(code, declineCode, message, paymentId)
    throw new GatewayRequestError(code, message)
  }
}
