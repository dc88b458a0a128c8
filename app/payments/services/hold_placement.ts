import { DateTime } from 'luxon'
import paymentsConfig from '#config/payments'
import type { OrderRecord } from '#orders/services/order_queries'
import {
  orderPaymentState,
  WAITING_STATUSES,
  type HoldTimes,
} from '#orders/services/order_payment_state'
import { orderTimeline } from '#orders/services/order_timeline'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { cardOnFile, type CardOnFile } from '#payments/services/card_on_file'
import {
  CardDeclinedError,
  GatewayRequestError,
  declineMessage,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger } from '#payments/services/ledger'
import { opsLog } from '#core/services/ops_log'
import { holds as holdMetric } from '#core/services/metrics'
import { fresh, idOf, isRetryable } from '#payments/services/gateway_calls'
import { orderLedgerRow, withLedger, type LedgerEntry } from '#payments/services/ledger_step'
import { keysOf } from '#payments/services/payment_keys'
import { holdRelease } from '#payments/services/hold_release'

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

type PlacedCall = Extract<HoldCall, { status: 'placed' }>

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

/** Placing the order's $1.00 hold, and renewing it before its authorization lapses. */
class HoldPlacement {
  /**
   * Places the order's $1.00 hold and reports the outcome; on `declined` the caller (the hold
   * worker) cancels the order and then marks the hold declined, in that order, so a crash between
   * the two leaves a stale claim that is picked up and finished. Under the order's money lock.
   */
  async placeHold(orderOrId: OrderRecord | number): Promise<HoldOutcome> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await fresh(orderOrId)
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
      const order = await fresh(orderOrId)
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
      return this.moveToRenewedHold(order, from, round, outcome, lapsed)
    })
  }

  /**
   * The new round's hold is placed: the old hold is released first (a crash here leaves the
   * order on it, and the next renewal finds both calls in the ledger and only moves the order),
   * then the order moves to the new round.
   */
  private async moveToRenewedHold(
    order: OrderRecord,
    from: { round: number; paymentId: string },
    round: number,
    outcome: PlacedCall,
    lapsed: boolean
  ): Promise<RenewalOutcome> {
    await holdRelease.releaseHoldRound(order, from.round, from.paymentId)
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
  }

  /**
   * The gateway call of hold round `round`, through its own ledger row and key: a row that
   * succeeded before is its answer (read back for its expiry), one that failed is the decline.
   */
  private async callHold(order: OrderRecord, round: number): Promise<HoldCall> {
    const row = orderLedgerRow(keysOf('hold', order, round), 'hold', order, order.holdAmountCents)
    return withLedger<PaymentRef, HoldCall, CardOnFile>(row, {
      prepare: async (entry) => {
        if (entry.status === 'succeeded' && entry.gatewayRef) {
          const times = await this.holdTimes(entry.gatewayRef, null)
          return { answer: { status: 'placed', paymentId: entry.gatewayRef, times } }
        }
        if (entry.status === 'failed') {
          const code = entry.errorCode ?? 'card_declined'
          return { answer: { status: 'declined', code, message: declineMessage(code) } }
        }
        const card = await cardOnFile(order.userId)
        if (card) return { using: card }
        await ledger.fail(entry, 'card_missing', 'No card on file.')
        const message = 'There is no card on file.'
        return { answer: { status: 'declined', code: 'card_missing', message } }
      },
      call: async (entry, card) => {
        const ref = await gateway().placeHold({
          customerId: card.customerId,
          paymentMethodId: card.paymentMethodId,
          amountCents: order.holdAmountCents,
          metadata: { order_id: order.publicId, purpose: 'hold' },
          idempotencyKey: entry.idempotencyKey,
        })
        holdMetric.inc({ result: 'placed' })
        return ref
      },
      ref: (ref) => ref.id,
      done: async (ref) => {
        opsLog('hold.placed', { order: order.publicId, amountCents: order.holdAmountCents, round })
        return {
          status: 'placed',
          paymentId: ref.id,
          times: await this.holdTimes(ref.id, ref.captureBefore ?? null),
          cardFingerprint: ref.cardFingerprint ?? null,
        }
      },
      // A hold keeps its own codes, and an error it does not know leaves the row as it is.
      record: false,
      failed: (error, entry) => this.holdFailed(entry, error),
    })
  }

  /** A hold call that failed: the row stays open (a retry, the bank's challenge) or is declined. */
  private async holdFailed(entry: LedgerEntry, error: unknown): Promise<HoldCall> {
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
}

export const holdPlacement = new HoldPlacement()
