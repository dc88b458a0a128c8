import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { DateTime } from 'luxon'
import logger from '@adonisjs/core/services/logger'
import paymentsConfig from '#config/payments'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderQueries } from '#orders/services/order_queries'
import {
  orderPaymentState,
  WAITING_STATUSES,
  type HoldTimes,
} from '#orders/services/order_payment_state'
import { orderTimeline } from '#orders/services/order_timeline'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { cardOnFile } from '#payments/services/card_on_file'
import { AppError } from '#core/exceptions/app_error'
import { orderEmails } from '#notifications/services/order_emails'
import {
  CardDeclinedError,
  GatewayRequestError,
  GatewayUnavailableError,
  CARD_AUTHENTICATION_FAILED,
  declineMessage,
  isCardSetupAction,
  savedCardDeclinedMessage,
  type CardInput,
  type CardSetupAction,
  type CardToken,
  type PaymentAction,
  type SavedCard,
} from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { crashPoint } from '#core/services/crash_points'
import { ledger } from '#payments/services/ledger'
import { opsLog } from '#core/services/ops_log'
import {
  fees as feeMetric,
  feesChargedCents,
  holds as holdMetric,
  refundedCents,
  refunds as refundMetric,
} from '#core/services/metrics'
import { feeStatusAfterDecline, feeStatusIsDue } from '#shared/vocabulary'

export const INVALID_CARD = 'Please enter a valid card.'

function cents(amount: number) {
  return `$${(amount / 100).toFixed(2)}`
}

export type HoldOutcome =
  | { status: 'placed'; paymentId: string }
  /** The bank asks the customer to authenticate the hold (3-D Secure); the order waits. */
  | { status: 'requires_action'; paymentId: string }
  | { status: 'declined'; code: string; message: string }
  | { status: 'retry'; code: string; message: string }

/** A renewal of a waiting order's hold (`renewHold`). */
export type RenewalOutcome =
  | { status: 'not_due' }
  | { status: 'renewed'; paymentId: string; round: number; expiresAt: DateTime }
  | { status: 'requires_action'; paymentId: string; round: number; waitUntil: DateTime }
  | { status: 'declined'; code: string; message: string; round: number }
  | { status: 'retry'; code: string; message: string }

/** One hold call's answer, with the placed hold's lapse and renewal times. */
type HoldCall =
  | { status: 'placed'; paymentId: string; times: HoldTimes; cardFingerprint?: string | null }
  | Exclude<HoldOutcome, { status: 'placed' }>

const idOf = (orderOrId: OrderRecord | number) =>
  typeof orderOrId === 'number' ? orderOrId : orderOrId.id

/**
 * When a hold placed now lapses (`captureBefore`, the gateway's word; ~7 days when it gives
 * none) and when it is renewed: `HOLD_RENEW_BEFORE_HOURS` before, and at the latest half way
 * through a shorter lifetime (a sandbox set to lapse holds within minutes).
 */
export function holdTimesFrom(captureBefore: string | null, now = DateTime.now()): HoldTimes {
  const config = paymentsConfig.holdWorker
  const given = captureBefore ? DateTime.fromISO(captureBefore, { zone: 'utc' }) : null
  const expiresAt =
    given && given.isValid ? given : now.toUTC().plus({ hours: config.defaultLifetimeHours })
  const lifetimeMs = Math.max(0, expiresAt.toMillis() - now.toMillis())
  const marginMs = Math.min(config.renewBeforeHours * 3_600_000, lifetimeMs / 2)
  return { expiresAt, renewAt: expiresAt.minus({ milliseconds: Math.round(marginMs) }) }
}

export type ReleaseOutcome =
  | { status: 'released' | 'not_placed' }
  | { status: 'retry' | 'failed'; code: string; message: string }

export type FeeOutcome =
  | { status: 'paid'; paymentId: string }
  | { status: 'waived' | 'refunded' }
  | { status: 'failed' | 'requires_action'; code: string; message: string }
  | { status: 'retry'; code: string; message: string }

export type RefundOutcome =
  | { status: 'refunded'; refundId: string | null; amountCents: number }
  | { status: 'nothing_to_refund' }
  | { status: 'retry' | 'failed'; code: string; message: string }

/** What a key needs of an order: its public id (new keys) and row id (keys written before). */
export type KeyedOrder = { id: number; publicId: string }

/** The purpose part of a late payment's refund key: such refunds are not refunds of the fee. */
const LATE_REFUND = 'late-refund'

export function isLateRefundKey(key: string) {
  return key.includes(`-${LATE_REFUND}-`)
}

/** `{installationId}-{part}-{part}...`: unique across installations and database resets. */
const installKey = (...parts: (string | number)[]) =>
  [paymentsConfig.installationId, ...parts].join('-')

/**
 * Idempotency keys, the one place they are built: fixed per order and purpose, so a re-run is
 * the same provider request, and carrying the installation id and the order's public id, so no
 * other install (nor this one after a database reset) ever sends the same key, e.g.
 * `{installationId}-{orderPublicId}-hold`.
 */
export const paymentKeys = {
  hold: (order: KeyedOrder, round = 1) =>
    round <= 1 ? installKey(order.publicId, 'hold') : installKey(order.publicId, 'hold', round),
  holdRelease: (order: KeyedOrder, round = 1) =>
    round <= 1
      ? installKey(order.publicId, 'hold-release')
      : installKey(order.publicId, 'hold-release', round),
  fee: (order: KeyedOrder, attempt = 1) =>
    attempt <= 1 ? installKey(order.publicId, 'fee') : installKey(order.publicId, 'fee', attempt),
  refund: (order: KeyedOrder, n = 1) =>
    n <= 1 ? installKey(order.publicId, 'refund') : installKey(order.publicId, 'refund', n),
  /** The whole fee back because the retailer cancelled the order after confirming it (once). */
  retailerCancelRefund: (order: KeyedOrder) => installKey(order.publicId, 'retailer-cancel-refund'),
  /** The refund of a payment that landed after the order stopped owing it (one per payment). */
  lateRefund: (order: KeyedOrder, paymentRef: string) =>
    installKey(order.publicId, LATE_REFUND, paymentRef),
  saveCard: (userUuid: string, token: string) => installKey('user', userUuid, 'card', token),
  cardSetup: (userUuid: string, setupId: string) =>
    installKey('user', userUuid, 'card-setup', setupId),
  deleteCustomer: (customerId: string) => installKey('customer', customerId, 'delete'),
  /** A card token request (genToken): its own row each time, never sent to the gateway as a key. */
  cardToken: (nonce: string) => installKey('token', nonce),
}

/**
 * The keys of earlier versions (by order row id). Ledger rows written under them are still
 * found, and a call they left unfinished is resumed with the key the provider already saw. Only
 * first rounds and first refunds existed then.
 */
export const legacyPaymentKeys: Partial<Record<keyof typeof paymentKeys, Function>> = {
  hold: (order: KeyedOrder, round = 1) => (round <= 1 ? `order:${order.id}:hold` : null),
  holdRelease: (order: KeyedOrder, round = 1) =>
    round <= 1 ? `order:${order.id}:hold-release` : null,
  fee: (order: KeyedOrder, attempt = 1) =>
    attempt <= 1 ? `order:${order.id}:fee` : `order:${order.id}:fee:${attempt}`,
  refund: (order: KeyedOrder, n = 1) => (n <= 1 ? `order:${order.id}:refund` : null),
  saveCard: (userUuid: string, token: string) => `user:${userUuid}:card:${token}`,
}

/** The key of a call and, when an earlier version had one for it, that key too (ledger look-ups). */
export function keysOf<K extends keyof typeof paymentKeys>(
  name: K,
  ...args: Parameters<(typeof paymentKeys)[K]>
): { key: string; legacyKey: string | null } {
  const build = paymentKeys[name] as (...values: unknown[]) => string
  const legacy = legacyPaymentKeys[name] as ((...values: unknown[]) => string | null) | undefined
  return { key: build(...args), legacyKey: legacy ? legacy(...args) : null }
}

/** Unavailable (rate limit, network) and "our credentials were refused" are worth retrying. */
function isRetryable(error: unknown): error is GatewayUnavailableError | GatewayRequestError {
  return (
    error instanceof GatewayUnavailableError ||
    (error instanceof GatewayRequestError && error.code === 'gateway_misconfigured')
  )
}

/**
 * Money for an order: the $1.00 hold, its release, the fee on success, and refunds. Every method
 * writes the ledger row before the gateway call and completes it after, uses the order's fixed
 * idempotency key, and moves the order's payment columns with conditional updates, so it can be
 * re-run after a crash at any line without charging twice. None of them runs inside a database
 * transaction (a provider round trip never holds locks).
 */
export class PaymentService {
  /** genToken: validates nothing itself (the caller did), asks the gateway for a card token. */
  async createCardToken(card: CardInput, userId: number | null): Promise<CardToken> {
    const entry = await ledger.begin({
      key: paymentKeys.cardToken(randomUUID()),
      kind: 'customer_card',
      gateway: gateway().name,
      userId,
      amountCents: 0,
    })
    try {
      const token = await this.withRateLimitRetry(() => gateway().createCardToken(card))
      await ledger.succeed(entry, token.id)
      return token
    } catch (error) {
      await this.recordFailure(entry, error)
      throw this.cardErrorToAppError(error)
    }
  }

  /**
   * Saves a card token on the customer at the gateway (creating the customer the first time).
   * A card whose bank asks for 3-D Secure first answers the action the customer must complete.
   */
  async saveCard(input: {
    /** Null while the account does not exist yet (one-step checkout saves the card first). */
    userId: number | null
    /** Our reference for the customer at the gateway: the user's uuid. */
    userUuid: string
    email: string
    name: string
    customerId: string | null
    token: string
  }): Promise<SavedCard | CardSetupAction> {
    const entry = await ledger.begin({
      ...keysOf('saveCard', input.userUuid, input.token),
      kind: 'customer_card',
      gateway: gateway().name,
      userId: input.userId,
      amountCents: 0,
    })
    try {
      const saved = await this.withRateLimitRetry(() =>
        gateway().saveCard({
          customerId: input.customerId,
          email: input.email,
          name: input.name,
          reference: input.userUuid,
          token: input.token,
          idempotencyKey: entry.idempotencyKey,
        })
      )
      await ledger.succeed(entry, isCardSetupAction(saved) ? saved.setupId : saved.paymentMethodId)
      return saved
    } catch (error) {
      await this.recordFailure(entry, error)
      throw this.cardErrorToAppError(error)
    }
  }

  /**
   * After the customer's 3-D Secure challenge: the saved card, or the action again while the
   * customer has not answered. A refused authentication is a 402 in plain words; a setup of
   * another customer is a 404. Its own ledger row and key (the gateway sets the default card).
   */
  async confirmCardSetup(input: {
    userId: number | null
    userUuid: string
    customerId: string
    setupId: string
  }): Promise<SavedCard | CardSetupAction> {
    const entry = await ledger.begin({
      ...keysOf('cardSetup', input.userUuid, input.setupId),
      kind: 'customer_card',
      gateway: gateway().name,
      userId: input.userId,
      amountCents: 0,
    })
    try {
      const outcome = await this.withRateLimitRetry(() =>
        gateway().confirmCardSetup({
          setupId: input.setupId,
          customerId: input.customerId,
          idempotencyKey: entry.idempotencyKey,
        })
      )
      if (isCardSetupAction(outcome)) {
        // The customer has not answered yet: the row stays open for the same key next time.
        await ledger.noteRetry(entry, 'authentication_pending', 'Waiting for the customer.')
        return outcome
      }
      await ledger.succeed(entry, outcome.paymentMethodId)
      return outcome
    } catch (error) {
      await this.recordFailure(entry, error)
      if (error instanceof GatewayRequestError && error.code === 'resource_missing') {
        throw AppError.notFound('There is no such card confirmation.', 'card_setup_not_found')
      }
      throw this.cardErrorToAppError(error)
    }
  }

  /**
   * Deletes the customer and its saved cards at the gateway (account deletion, or a one-step
   * checkout refused after its card was saved), through the ledger like every gateway call.
   */
  async deleteCustomer(input: { userId: number | null; customerId: string }): Promise<void> {
    const entry = await ledger.begin({
      ...keysOf('deleteCustomer', input.customerId),
      kind: 'customer_delete',
      gateway: gateway().name,
      userId: input.userId,
      amountCents: 0,
    })
    if (entry.status === 'succeeded') return
    try {
      await this.withRateLimitRetry(() =>
        gateway().deleteCustomer({
          customerId: input.customerId,
          idempotencyKey: entry.idempotencyKey,
        })
      )
      await ledger.succeed(entry, input.customerId)
    } catch (error) {
      await this.recordFailure(entry, error)
      throw error
    }
  }

  /**
   * Places the order's $1.00 hold and reports the outcome; on `declined` the caller (the hold
   * worker) cancels the order and then marks the hold declined, in that order, so a crash between
   * the two leaves a stale claim that is picked up and finished. Under the order's money lock.
   */
  async placeHold(orderOrId: OrderRecord | number): Promise<HoldOutcome> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await this.fresh(orderOrId)
      if (order.holdPaymentId && ['placed', 'released'].includes(order.holdStatus)) {
        return { status: 'placed', paymentId: order.holdPaymentId }
      }
      if (order.holdStatus === 'declined') {
        const code = order.holdErrorCode ?? 'card_declined'
        return { status: 'declined', code, message: declineMessage(code) }
      }
      if (order.holdStatus === 'requires_action' && order.holdPaymentId) {
        return { status: 'requires_action', paymentId: order.holdPaymentId }
      }
      const outcome = await this.callHold(order, order.holdRound)
      if (outcome.status !== 'placed') return outcome
      await orderPaymentState.holdPlaced(order.id, outcome.paymentId, {
        times: outcome.times,
        cardFingerprint: outcome.cardFingerprint,
      })
      return { status: 'placed', paymentId: outcome.paymentId }
    })
  }

  /**
   * The gateway call of hold round `round`, through its own ledger row and key: a row that
   * succeeded before is its answer (read back for its expiry), one that failed is the decline.
   */
  private async callHold(order: OrderRecord, round: number): Promise<HoldCall> {
    const entry = await ledger.begin({
      ...keysOf('hold', order, round),
      kind: 'hold',
      gateway: gateway().name,
      orderId: order.id,
      userId: order.userId,
      amountCents: order.holdAmountCents,
    })
    if (entry.status === 'succeeded' && entry.gatewayRef) {
      return {
        status: 'placed',
        paymentId: entry.gatewayRef,
        times: await this.holdTimes(entry.gatewayRef, null),
      }
    }
    if (entry.status === 'failed') {
      const code = entry.errorCode ?? 'card_declined'
      return { status: 'declined', code, message: declineMessage(code) }
    }

    const card = await cardOnFile(order.userId)
    if (!card) {
      await ledger.fail(entry, 'card_missing', 'No card on file.')
      return { status: 'declined', code: 'card_missing', message: 'There is no card on file.' }
    }

    try {
      const ref = await gateway().placeHold({
        customerId: card.customerId,
        paymentMethodId: card.paymentMethodId,
        amountCents: order.holdAmountCents,
        metadata: { order_id: order.publicId, purpose: 'hold' },
        idempotencyKey: entry.idempotencyKey,
      })
      holdMetric.inc({ result: 'placed' })
      await ledger.succeed(entry, ref.id)
      opsLog('hold.placed', { order: order.publicId, amountCents: order.holdAmountCents, round })
      return {
        status: 'placed',
        paymentId: ref.id,
        times: await this.holdTimes(ref.id, ref.captureBefore ?? null),
        cardFingerprint: ref.cardFingerprint ?? null,
      }
    } catch (error) {
      if (isRetryable(error)) {
        holdMetric.inc({ result: 'retry' })
        await ledger.noteRetry(entry, error.code, error.message)
        return { status: 'retry', code: error.code, message: error.message }
      }
      if (error instanceof CardDeclinedError && error.requiresAuthentication && error.paymentId) {
        holdMetric.inc({ result: 'requires_action' })
        // Not final: the customer may still authenticate this very payment. The row stays open
        // (a re-run with the same key is answered the same), and is closed by the outcome.
        await ledger.noteRetry(entry, 'authentication_required', error.message)
        return { status: 'requires_action', paymentId: error.paymentId }
      }
      if (error instanceof CardDeclinedError || error instanceof GatewayRequestError) {
        holdMetric.inc({ result: 'declined' })
        const code =
          error instanceof CardDeclinedError ? (error.declineCode ?? error.code) : error.code
        const kept = error instanceof CardDeclinedError ? error.paymentId : null
        await ledger.fail(entry, code, error.message, kept)
        return { status: 'declined', code, message: declineMessage(code) }
      }
      throw error
    }
  }

  /**
   * When a placed hold lapses and when to renew it: the gateway's `capture_before` (from its
   * answer, else read back), or the card networks' ~7 days when it does not say.
   */
  private async holdTimes(paymentId: string, captureBefore: string | null): Promise<HoldTimes> {
    let lapses = captureBefore
    if (!lapses) {
      const payment = await gateway()
        .retrievePayment(paymentId)
        .catch(() => null)
      lapses = payment?.captureBefore ?? null
    }
    return holdTimesFrom(lapses)
  }

  /**
   * Renews a waiting order's hold before its authorization lapses (or at once, `lapsed`: the
   * gateway reported it expired): a new hold round is placed under its own key
   * (`paymentKeys.hold(order, round + 1)`), the old hold is released under its own release key,
   * then the order moves to the new round. Each step is ledger-backed, so a run cut short is
   * finished by the next with the same keys. A new hold the bank declines is `declined` (the
   * caller cancels the order as a declined hold); one that needs the customer's authentication
   * waits for them while the old hold stays live until it lapses.
   */
  async renewHold(
    orderOrId: OrderRecord | number,
    options: { lapsed?: boolean } = {}
  ): Promise<RenewalOutcome> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await this.fresh(orderOrId)
      if (
        !WAITING_STATUSES.includes(order.status) ||
        order.holdStatus !== 'placed' ||
        !order.holdPaymentId
      ) {
        return { status: 'not_due' }
      }
      const now = DateTime.now()
      if (!options.lapsed && (!order.holdRenewAt || order.holdRenewAt > now)) {
        return { status: 'not_due' }
      }
      // Lapsed: the gateway said so, or its time passed before this renewal ran.
      const lapsed =
        options.lapsed === true || (order.holdExpiresAt !== null && order.holdExpiresAt <= now)
      const from = { round: order.holdRound, paymentId: order.holdPaymentId }
      const round = order.holdRound + 1
      const outcome = await this.callHold(order, round)
      if (outcome.status === 'retry') {
        const config = paymentsConfig.holdWorker
        await orderPaymentState.holdRenewalLater(
          order.id,
          outcome.code,
          now.plus({ seconds: config.renewRetrySeconds })
        )
        return outcome
      }
      if (outcome.status === 'declined') return { ...outcome, round }
      if (outcome.status === 'requires_action') {
        // The customer confirms the new hold while the old one lives (at least 15 minutes).
        const earliest = now.plus({ minutes: 15 })
        const lapses = order.holdExpiresAt && !lapsed ? order.holdExpiresAt : earliest
        const waitUntil = lapses > earliest ? lapses : earliest
        await orderPaymentState.holdRenewalNeedsAction(order.id, from, {
          round,
          paymentId: outcome.paymentId,
          waitUntil,
        })
        return { status: 'requires_action', paymentId: outcome.paymentId, round, waitUntil }
      }
      // The old hold goes first: a crash here leaves the order on it, and the next renewal
      // finds both calls in the ledger and only moves the order.
      await this.releaseHoldRound(order, from.round, from.paymentId)
      const moved = await orderPaymentState.holdRenewed(order.id, from, {
        round,
        paymentId: outcome.paymentId,
        times: outcome.times,
        cardFingerprint: outcome.cardFingerprint,
      })
      if (moved) {
        await orderTimeline.append({
          orderId: order.id,
          kind: 'hold_renewed',
          from: order.status,
          to: order.status,
          source: 'payments',
          actor: 'system',
          note: lapsed
            ? 'The $1.00 card check lapsed at the payment provider; a new one was placed.'
            : 'The $1.00 card check was renewed before it lapsed.',
          meta: {
            round,
            expiresAt: outcome.times.expiresAt.toUTC().toISO(),
            previousExpiresAt: order.holdExpiresAt?.toUTC().toISO() ?? null,
            lapsed,
          },
        })
        opsLog('hold.renewed', {
          order: order.publicId,
          round,
          expiresAt: outcome.times.expiresAt.toUTC().toISO(),
          lapsed,
        })
      }
      return {
        status: 'renewed',
        paymentId: outcome.paymentId,
        round,
        expiresAt: outcome.times.expiresAt,
      }
    })
  }

  /**
   * What the customer needs to authenticate the order's held-back hold (the challenge page or
   * Stripe's client secret); null when the hold does not wait for them.
   */
  async holdAction(orderOrId: OrderRecord | number): Promise<PaymentAction | null> {
    const order = await this.fresh(orderOrId)
    if (order.holdStatus !== 'requires_action' || !order.holdPaymentId) return null
    return gateway().paymentAction(order.holdPaymentId)
  }

  /**
   * After the customer's authentication of the hold: reads the payment back (the payment made
   * under the hold's key, never a second one) and, once it awaits capture, records the hold as
   * placed through the hold's own ledger row. `authentication_failed`: the bank refused this
   * try and the hold still waits (the customer may try again until its deadline).
   */
  async confirmHoldAuthentication(
    orderOrId: OrderRecord | number
  ): Promise<
    | HoldOutcome
    | { status: 'authentication_failed'; paymentId: string }
    | { status: 'order_closed' }
  > {
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await this.fresh(orderOrId)
      // An order that ended has no hold to confirm: its waiting payment was cancelled with it.
      if (order.status !== 'pending' && order.status !== 'entered') {
        return { status: 'order_closed' as const }
      }
      if (['placed', 'released'].includes(order.holdStatus) && order.holdPaymentId) {
        return { status: 'placed' as const, paymentId: order.holdPaymentId }
      }
      if (order.holdStatus === 'declined' || order.holdStatus === 'skipped') {
        const code = order.holdErrorCode ?? 'card_declined'
        return { status: 'declined' as const, code, message: declineMessage(code) }
      }
      // Never a new gateway call from here: only the payment already made is read back.
      if (order.holdStatus !== 'requires_action' || !order.holdPaymentId) {
        return { status: 'requires_action' as const, paymentId: order.holdPaymentId ?? '' }
      }
      const paymentId = order.holdPaymentId
      const payment = await this.recordAuthenticatedHold(order, paymentId)
      if (payment?.status === 'requires_capture') return { status: 'placed' as const, paymentId }
      if (payment?.lastError?.code === 'payment_intent_authentication_failure') {
        return { status: 'authentication_failed' as const, paymentId }
      }
      return { status: 'requires_action' as const, paymentId }
    })
  }

  /**
   * Reads back a hold that waited for the customer's authentication and, once it awaits
   * capture, records it as placed through the hold's own ledger row (a renewal's older hold is
   * released then). Returns the payment as the gateway reports it (null when it has none).
   */
  async recordAuthenticatedHold(order: OrderRecord, paymentId: string) {
    return withOrderMoney(order.id, async () => {
      const payment = await gateway().retrievePayment(paymentId)
      if (payment?.status !== 'requires_capture') return payment
      const entry = await ledger.find(keysOf('hold', order, order.holdRound))
      if (entry && entry.status !== 'succeeded') {
        holdMetric.inc({ result: 'placed' })
        await ledger.succeed(entry, paymentId)
      }
      await orderPaymentState.holdPlaced(order.id, paymentId, {
        times: holdTimesFrom(payment.captureBefore),
      })
      opsLog('hold.placed', { order: order.publicId, amountCents: order.holdAmountCents })
      await this.releaseSupersededHolds(await this.fresh(order.id))
      return payment
    })
  }

  /**
   * The customer did not authenticate the hold in time: the waiting payment is cancelled at the
   * gateway (so a late answer can never authorise it), through its own ledger row and the hold's
   * release key, then the hold's row is closed as declined. Throws when the gateway cannot be
   * reached: the caller's claim goes stale and the whole step runs again.
   */
  async abandonHoldAuthentication(order: OrderRecord, paymentId: string) {
    return withOrderMoney(order.id, async () => {
      const release = await ledger.begin({
        ...keysOf('holdRelease', order, order.holdRound),
        kind: 'hold_release',
        gateway: gateway().name,
        orderId: order.id,
        userId: order.userId,
        amountCents: order.holdAmountCents,
      })
      if (release.status === 'started') {
        try {
          const ref = await gateway().releaseHold({
            paymentId,
            idempotencyKey: release.idempotencyKey,
          })
          await ledger.succeed(release, ref.id)
        } catch (error) {
          await this.recordFailure(release, error)
          if (!(error instanceof GatewayRequestError)) throw error
          logger.error({ orderId: order.id, code: error.code }, 'waiting hold not cancelled')
        }
      }
      const entry = await ledger.find(keysOf('hold', order, order.holdRound))
      if (entry && entry.status === 'started') {
        await ledger.fail(entry, 'authentication_required', 'Not authenticated in time.')
      }
    })
  }

  /**
   * Releases (cancels) the order's hold if one was placed, or one still waiting for the
   * customer's authentication; a no-op otherwise or if done.
   */
  async releaseHold(orderOrId: OrderRecord | number): Promise<ReleaseOutcome> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await this.fresh(orderOrId)
      if (order.holdStatus === 'released') return { status: 'released' }
      if (order.holdStatus === 'requires_action' && order.holdPaymentId) {
        return this.cancelWaitingHold(order, order.holdPaymentId)
      }
      if (order.holdStatus !== 'placed' || !order.holdPaymentId) return { status: 'not_placed' }
      const outcome = await this.releaseHoldRound(order, order.holdRound, order.holdPaymentId)
      if (outcome.status !== 'released') return outcome
      await orderPaymentState.holdReleased(order.id)
      return { status: 'released' }
    })
  }

  /** Releases the hold of one round (`payment`) through that round's release key. */
  private async releaseHoldRound(
    order: OrderRecord,
    round: number,
    paymentId: string
  ): Promise<ReleaseOutcome> {
    const entry = await ledger.begin({
      ...keysOf('holdRelease', order, round),
      kind: 'hold_release',
      gateway: gateway().name,
      orderId: order.id,
      userId: order.userId,
      amountCents: order.holdAmountCents,
    })
    if (entry.status === 'succeeded') return { status: 'released' }
    try {
      const ref = await gateway().releaseHold({ paymentId, idempotencyKey: entry.idempotencyKey })
      holdMetric.inc({ result: 'released' })
      await ledger.succeed(entry, ref.id)
      opsLog('hold.released', { order: order.publicId, amountCents: order.holdAmountCents, round })
      return { status: 'released' }
    } catch (error) {
      holdMetric.inc({ result: 'release_failed' })
      await this.recordFailure(entry, error)
      if (isRetryable(error)) return { status: 'retry', code: error.code, message: error.message }
      if (error instanceof GatewayRequestError || error instanceof CardDeclinedError) {
        logger.error({ orderId: order.id, code: error.code, round }, 'hold release refused')
        return { status: 'failed', code: error.code, message: error.message }
      }
      throw error
    }
  }

  /**
   * Holds of earlier rounds that were placed and never released (a renewal cut short, a
   * renewal's old hold kept while the customer confirmed the new one): released now, each
   * under its own round's release key. Nothing to do for an order on its first round.
   */
  async releaseSupersededHolds(orderOrId: OrderRecord | number) {
    // Rounds only ever go up: an order read on its first round has nothing older.
    if (typeof orderOrId !== 'number' && orderOrId.holdRound <= 1) return 0
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await this.fresh(orderOrId)
      if (order.holdRound <= 1) return 0
      const rows = await ledger.forOrder(order.id)
      const byKey = new Map(rows.map((row) => [row.idempotencyKey, row]))
      const rowOf = (keys: { key: string; legacyKey: string | null }) =>
        byKey.get(keys.key) ?? (keys.legacyKey ? byKey.get(keys.legacyKey) : undefined)
      let released = 0
      for (let round = 1; round < order.holdRound; round++) {
        const hold = rowOf(keysOf('hold', order, round))
        if (hold?.status !== 'succeeded' || !hold.gatewayRef) continue
        if (rowOf(keysOf('holdRelease', order, round))?.status === 'succeeded') continue
        const outcome = await this.releaseHoldRound(order, round, hold.gatewayRef)
        if (outcome.status === 'released') released += 1
      }
      return released
    })
  }

  /**
   * The order ended (cancelled, failed) while its hold waited for the customer's 3-D Secure: the
   * waiting payment is cancelled at the gateway through the ledger (the hold's release key), so
   * no late authentication can authorise it, the hold's own row is closed, and the hold reads
   * released. A customer who authenticated meanwhile had their authorization cancelled the same
   * way (the hold was placed, then released).
   */
  private async cancelWaitingHold(order: OrderRecord, paymentId: string): Promise<ReleaseOutcome> {
    const release = await ledger.begin({
      ...keysOf('holdRelease', order, order.holdRound),
      kind: 'hold_release',
      gateway: gateway().name,
      orderId: order.id,
      userId: order.userId,
      amountCents: order.holdAmountCents,
    })
    if (release.status !== 'succeeded') {
      try {
        const ref = await gateway().releaseHold({
          paymentId,
          idempotencyKey: release.idempotencyKey,
        })
        holdMetric.inc({ result: 'released' })
        await ledger.succeed(release, ref.id)
        opsLog('hold.released', { order: order.publicId, amountCents: order.holdAmountCents })
      } catch (error) {
        holdMetric.inc({ result: 'release_failed' })
        await this.recordFailure(release, error)
        if (isRetryable(error)) return { status: 'retry', code: error.code, message: error.message }
        if (error instanceof GatewayRequestError || error instanceof CardDeclinedError) {
          logger.error({ orderId: order.id, code: error.code }, 'waiting hold not cancelled')
          return { status: 'failed', code: error.code, message: error.message }
        }
        throw error
      }
    }
    const hold = await ledger.find(keysOf('hold', order, order.holdRound))
    if (hold?.status === 'started') {
      await ledger.fail(hold, 'order_closed', 'The order ended before the customer authenticated.')
    }
    await orderPaymentState.waitingHoldCancelled(order.id)
    return { status: 'released' }
  }

  /**
   * Charges the service fee off-session. Only for a successful order (verify now, charge only on
   * success). A declined fee is recorded and the customer told; `retry: true` makes a new attempt
   * (with a new key) after a decline, e.g. once the customer saved another card.
   */
  async chargeFee(
    orderOrId: OrderRecord | number,
    options: { retry?: boolean } = {}
  ): Promise<FeeOutcome> {
    return withOrderMoney(idOf(orderOrId), () => this.chargeFeeLocked(idOf(orderOrId), options))
  }

  private async chargeFeeLocked(
    orderId: number,
    options: { retry?: boolean } = {}
  ): Promise<FeeOutcome> {
    let order = await this.fresh(orderId)
    if (order.status !== 'success') {
      throw AppError.conflict(
        'The fee is charged only for a successful order.',
        'order_not_successful'
      )
    }
    if (order.feeStatus === 'paid' && order.feePaymentId) {
      return { status: 'paid', paymentId: order.feePaymentId }
    }
    if (order.feeStatus === 'waived' || order.feeStatus === 'refunded') {
      return { status: order.feeStatus }
    }
    if (order.priceCents <= 0) {
      await orderPaymentState.feeWaived(order.id)
      return { status: 'waived' }
    }

    let attempt = Math.max(1, order.feeAttempts)
    if (feeStatusIsDue(order.feeStatus)) {
      if (!options.retry) {
        const code = order.feeErrorCode ?? 'card_declined'
        return { status: order.feeStatus, code, message: declineMessage(code) }
      }
      // An attempt cut short by a crash (no ledger row yet, or one left `started`) is resumed
      // with its own key instead of starting a new one: a new key could charge a second time.
      const last = await ledger.find(keysOf('fee', order, order.feeAttempts))
      if (order.feeAttempts >= 1 && last?.status !== 'failed' && last?.status !== 'succeeded') {
        attempt = order.feeAttempts
      } else {
        attempt = order.feeAttempts + 1
        if (!(await orderPaymentState.beginFeeAttempt(order.id, attempt))) {
          order = await this.fresh(order.id)
          return this.chargeFeeLocked(order.id)
        }
      }
    } else if (order.feeAttempts === 0) {
      await orderPaymentState.beginFeeAttempt(order.id, 1)
    }

    const entry = await ledger.begin({
      ...keysOf('fee', order, attempt),
      kind: 'fee',
      gateway: gateway().name,
      orderId: order.id,
      userId: order.userId,
      amountCents: order.priceCents,
    })
    if (entry.status === 'succeeded' && entry.gatewayRef) {
      await orderPaymentState.feePaid(order.id, entry.gatewayRef)
      return { status: 'paid', paymentId: entry.gatewayRef }
    }
    if (entry.status === 'failed') {
      return this.feeDeclined(order, entry.errorCode ?? 'card_declined', attempt)
    }

    const card = await cardOnFile(order.userId)
    if (!card) {
      await ledger.fail(entry, 'card_missing', 'No card on file.')
      return this.feeDeclined(order, 'card_missing', attempt)
    }
    try {
      const ref = await gateway().chargeFee({
        customerId: card.customerId,
        paymentMethodId: card.paymentMethodId,
        amountCents: order.priceCents,
        description: `Dropslot service fee: ${order.productTitle}`.slice(0, 200),
        metadata: { order_id: order.publicId, purpose: 'fee' },
        idempotencyKey: entry.idempotencyKey,
      })
      crashPoint('fee-charged')
      feeMetric.inc({ result: 'charged' })
      feesChargedCents.inc(order.priceCents)
      await ledger.succeed(entry, ref.id)
      await orderPaymentState.feePaid(order.id, ref.id)
      opsLog('fee.charged', { order: order.publicId, amountCents: order.priceCents, attempt })
      return { status: 'paid', paymentId: ref.id }
    } catch (error) {
      if (isRetryable(error)) {
        feeMetric.inc({ result: 'retry' })
        await ledger.noteRetry(entry, error.code, error.message)
        return { status: 'retry', code: error.code, message: error.message }
      }
      if (error instanceof CardDeclinedError || error instanceof GatewayRequestError) {
        feeMetric.inc({ result: 'declined' })
        const code =
          error instanceof CardDeclinedError
            ? error.requiresAuthentication
              ? 'authentication_required'
              : (error.declineCode ?? error.code)
            : error.code
        // The declined payment's id: if it completes later (the customer authenticates it),
        // the provider's notice finds this row.
        const kept = error instanceof CardDeclinedError ? error.paymentId : null
        await ledger.fail(entry, code, error.message, kept)
        return this.feeDeclined(order, code, attempt)
      }
      throw error
    }
  }

  /**
   * Whether a fee charge of the order was sent and its answer is not known yet (its ledger row
   * is still `started`: an outage or a crash cut the call short). The money may still land, so
   * nothing may decide the fee away (waive, correct) until the call is finished.
   */
  async feeCallInFlight(orderId: number): Promise<boolean> {
    const rows = await ledger.forOrder(orderId)
    return rows.some((row) => row.kind === 'fee' && row.status === 'started')
  }

  /**
   * Refunds the fee: what is left of it, or `amountCents` of it (a partial refund). Each refund
   * is its own ledger row and idempotency key (`paymentKeys.refund(order, n)`: the first, the
   * second...), written before the gateway call. A refund cut short (a crash, an outage) is
   * finished with its own key and amount before any new one is started; what was refunded is
   * read from the ledger, so the order's columns are brought in line after a crash. Calling it
   * without an amount on a fully refunded fee is a no-op. Under the order's money lock.
   */
  async refund(
    orderOrId: OrderRecord | number,
    options: { amountCents?: number; retailerCancel?: boolean } = {}
  ): Promise<RefundOutcome> {
    return withOrderMoney(idOf(orderOrId), () => this.refundLocked(idOf(orderOrId), options))
  }

  private async refundLocked(
    orderId: number,
    options: { amountCents?: number; retailerCancel?: boolean } = {}
  ): Promise<RefundOutcome> {
    const order = await this.fresh(orderId)
    if (!order.feePaymentId || !['paid', 'refunded'].includes(order.feeStatus)) {
      return { status: 'nothing_to_refund' }
    }
    const rows = await ledger.forOrder(order.id)
    // Refunds of this fee: a late payment's own refund is not one of them.
    const refunds = rows.filter(
      (row) => row.kind === 'refund' && !isLateRefundKey(row.idempotencyKey)
    )
    const succeeded = refunds.filter((row) => row.status === 'succeeded')
    let refunded = succeeded.reduce((sum, row) => sum + row.amountCents, 0)
    if (refunded > order.refundedCents) {
      await orderPaymentState.feeRefundedTo(order.id, refunded, refunded >= order.priceCents)
    }

    const open = refunds.find((row) => row.status === 'started')
    let keys: { key: string; legacyKey: string | null }
    let amount: number
    if (open) {
      if (options.amountCents !== undefined && options.amountCents !== open.amountCents) {
        throw AppError.conflict(
          `A refund of ${cents(open.amountCents)} is still being made; finish it first.`,
          'refund_in_progress'
        )
      }
      keys = { key: open.idempotencyKey, legacyKey: null }
      amount = open.amountCents
    } else {
      const remaining = order.priceCents - refunded
      if (remaining <= 0) {
        if (options.amountCents !== undefined) {
          throw AppError.conflict('The fee was refunded in full already.', 'already_refunded')
        }
        return { status: 'refunded', refundId: null, amountCents: refunded }
      }
      amount = options.amountCents ?? remaining
      if (!Number.isSafeInteger(amount) || amount <= 0 || amount > remaining) {
        throw AppError.unprocessable(
          `The refund must be between $0.01 and what is left of the fee (${cents(remaining)}).`,
          { amount: `At most ${cents(remaining)}.` },
          'invalid_refund_amount'
        )
      }
      // The retailer's cancellation gives the rest of the fee back under its own key: the same
      // message read through two doors (or twice) can never refund twice.
      keys = options.retailerCancel
        ? keysOf('retailerCancelRefund', order)
        : keysOf('refund', order, refunds.length + 1)
    }

    const entry = await ledger.begin({
      ...keys,
      kind: 'refund',
      gateway: gateway().name,
      orderId: order.id,
      userId: order.userId,
      amountCents: amount,
    })
    let refundId = entry.gatewayRef
    if (entry.status === 'failed') {
      return { status: 'failed', code: entry.errorCode ?? 'refund_failed', message: 'refused' }
    }
    if (entry.status !== 'succeeded') {
      try {
        const ref = await gateway().refund({
          paymentId: order.feePaymentId,
          amountCents: amount,
          idempotencyKey: entry.idempotencyKey,
        })
        refundMetric.inc({ result: 'refunded' })
        refundedCents.inc(amount)
        await ledger.succeed(entry, ref.id)
        refundId = ref.id
        opsLog('fee.refunded', { order: order.publicId, amountCents: amount })
      } catch (error) {
        await this.recordFailure(entry, error)
        if (isRetryable(error)) {
          refundMetric.inc({ result: 'retry' })
          return { status: 'retry', code: error.code, message: error.message }
        }
        if (error instanceof GatewayRequestError || error instanceof CardDeclinedError) {
          refundMetric.inc({ result: 'failed' })
          return { status: 'failed', code: error.code, message: error.message }
        }
        throw error
      }
      refunded += amount
    }
    await orderPaymentState.feeRefundedTo(order.id, refunded, refunded >= order.priceCents)
    return { status: 'refunded', refundId, amountCents: amount }
  }

  /**
   * A fee payment that landed after the order stopped owing it (a charge the gateway answered
   * late, a declined charge the customer completed later, a second attempt's twin): recorded in
   * the ledger by the caller and refunded here in full, under its own key
   * (`paymentKeys.lateRefund(order, paymentId)`). The order's timeline says so and the customer
   * is told. The order's own fee columns are not touched: this money was never the fee it owes.
   * Safe to run again: the refund is made once, the line and the e-mail written once.
   */
  async refundLatePayment(
    orderOrId: OrderRecord | number,
    payment: { id: string; amountCents: number }
  ): Promise<RefundOutcome> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await this.fresh(orderOrId)
      const entry = await ledger.begin({
        ...keysOf('lateRefund', order, payment.id),
        kind: 'refund',
        gateway: gateway().name,
        orderId: order.id,
        userId: order.userId,
        amountCents: payment.amountCents,
      })
      if (entry.status === 'failed') {
        return { status: 'failed', code: entry.errorCode ?? 'refund_failed', message: 'refused' }
      }
      if (entry.status === 'started') {
        try {
          const ref = await gateway().refund({
            paymentId: payment.id,
            amountCents: payment.amountCents,
            idempotencyKey: entry.idempotencyKey,
          })
          await ledger.succeed(entry, ref.id)
          opsLog('fee.late_refunded', { order: order.publicId, amountCents: payment.amountCents })
        } catch (error) {
          await this.recordFailure(entry, error)
          if (isRetryable(error)) {
            return { status: 'retry', code: error.code, message: error.message }
          }
          if (error instanceof GatewayRequestError || error instanceof CardDeclinedError) {
            logger.error({ orderId: order.id, code: error.code }, 'late payment not refunded')
            return { status: 'failed', code: error.code, message: error.message }
          }
          throw error
        }
      }
      const sent = await orderEmails.sendLatePaymentRefunded(
        order,
        payment.amountCents,
        entry.idempotencyKey
      )
      if (sent) {
        // The e-mail is written once per refund: so is the timeline's line.
        await orderTimeline.append({
          orderId: order.id,
          kind: 'late_payment_refunded',
          from: order.status,
          to: order.status,
          source: 'payments',
          actor: 'system',
          note:
            `A payment of ${cents(payment.amountCents)} went through after the order no longer ` +
            'owed it; it was refunded in full automatically.',
          meta: {
            amountCents: payment.amountCents,
            paymentRef: payment.id,
            refundKey: entry.idempotencyKey,
            feeStatus: order.feeStatus,
          },
        })
      }
      return { status: 'refunded', refundId: entry.gatewayRef, amountCents: payment.amountCents }
    })
  }

  /** The ledger rows of an order, oldest first (admin views, support). */
  async ledgerFor(orderId: number) {
    return ledger.forOrder(orderId)
  }

  /**
   * Money actually moved, from the ledger (dashboard): fees captured (succeeded fee rows) and
   * refunded (succeeded refund rows), in cents.
   */
  async totals(): Promise<{ capturedCents: number; refundedCents: number }> {
    return ledger.totals()
  }

  private async feeDeclined(
    order: OrderRecord,
    code: string,
    attempt: number
  ): Promise<FeeOutcome> {
    const status = feeStatusAfterDecline(code)
    await orderPaymentState.feeFailed(order.id, status, code)
    opsLog('fee.declined', { order: order.publicId, code, attempt })
    await orderEmails.sendFeeDeclined(order, declineMessage(code), attempt)
    return { status, code, message: declineMessage(code) }
  }

  private async fresh(orderOrId: OrderRecord | number): Promise<OrderRecord> {
    const id = typeof orderOrId === 'number' ? orderOrId : orderOrId.id
    return orderQueries.findById(id)
  }

  private async recordFailure(entry: Parameters<typeof ledger.fail>[0], error: unknown) {
    if (isRetryable(error)) {
      await ledger.noteRetry(entry, error.code, error.message)
    } else if (error instanceof CardDeclinedError) {
      await ledger.fail(entry, error.declineCode ?? error.code, error.message)
    } else if (error instanceof GatewayRequestError) {
      await ledger.fail(entry, error.code, error.message)
    } else {
      await ledger.noteRetry(entry, 'error', error instanceof Error ? error.message : 'error')
    }
  }

  /** A synchronous call (card save) waits briefly on a provider 429 instead of failing at once. */
  private async withRateLimitRetry<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call()
      } catch (error) {
        if (
          !(error instanceof GatewayUnavailableError) ||
          error.code !== 'rate_limited' ||
          attempt >= 4
        ) {
          throw error
        }
        await sleep(100 * 2 ** attempt)
      }
    }
  }

  private cardErrorToAppError(error: unknown): unknown {
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
}

export const paymentService = new PaymentService()
