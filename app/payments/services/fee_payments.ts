import type { OrderRecord } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { cardOnFile, type CardOnFile } from '#payments/services/card_on_file'
import { AppError } from '#core/exceptions/app_error'
import { orderEmails } from '#notifications/services/order_emails'
import {
  CardDeclinedError,
  GatewayRequestError,
  declineMessage,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { crashPoint } from '#core/services/crash_points'
import { ledger } from '#payments/services/ledger'
import { opsLog } from '#core/services/ops_log'
import { fees as feeMetric, feesChargedCents } from '#core/services/metrics'
import { feeStatusAfterDecline, feeStatusIsDue } from '#shared/vocabulary'
import { fresh, idOf, isRetryable } from '#payments/services/gateway_calls'
import { orderLedgerRow, withLedger, type LedgerEntry } from '#payments/services/ledger_step'
import { keysOf } from '#payments/services/payment_keys'

export type FeeOutcome =
  | { status: 'paid'; paymentId: string }
  | { status: 'waived' | 'refunded' }
  | { status: 'failed' | 'requires_action'; code: string; message: string }
  | { status: 'retry'; code: string; message: string }

/** The service fee of a successful order, charged off-session on the saved card. */
class FeePayments {
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

  /**
   * Whether a fee charge of the order was sent and its answer is not known yet (its ledger row
   * is still `started`: an outage or a crash cut the call short). The money may still land, so
   * nothing may decide the fee away (waive, correct) until the call is finished.
   */
  async feeCallInFlight(orderId: number): Promise<boolean> {
    const rows = await ledger.forOrder(orderId)
    return rows.some((row) => row.kind === 'fee' && row.status === 'started')
  }

  private async chargeFeeLocked(
    orderId: number,
    options: { retry?: boolean } = {}
  ): Promise<FeeOutcome> {
    let order = await fresh(orderId)
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
          order = await fresh(order.id)
          return this.chargeFeeLocked(order.id)
        }
      }
    } else if (order.feeAttempts === 0) {
      await orderPaymentState.beginFeeAttempt(order.id, 1)
    }
    return this.chargeAttempt(order, attempt)
  }

  /** Fee attempt `attempt` through its own ledger row and key: a settled row is its answer. */
  private async chargeAttempt(order: OrderRecord, attempt: number): Promise<FeeOutcome> {
    const row = orderLedgerRow(keysOf('fee', order, attempt), 'fee', order, order.priceCents)
    return withLedger<PaymentRef, FeeOutcome, CardOnFile>(row, {
      prepare: async (entry) => {
        if (entry.status === 'succeeded' && entry.gatewayRef) {
          await orderPaymentState.feePaid(order.id, entry.gatewayRef)
          return { answer: { status: 'paid', paymentId: entry.gatewayRef } }
        }
        if (entry.status === 'failed') {
          const code = entry.errorCode ?? 'card_declined'
          return { answer: await this.feeDeclined(order, code, attempt) }
        }
        const card = await cardOnFile(order.userId)
        if (card) return { using: card }
        await ledger.fail(entry, 'card_missing', 'No card on file.')
        return { answer: await this.feeDeclined(order, 'card_missing', attempt) }
      },
      call: async (entry, card) => {
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
        return ref
      },
      ref: (ref) => ref.id,
      done: async (ref) => {
        await orderPaymentState.feePaid(order.id, ref.id)
        opsLog('fee.charged', { order: order.publicId, amountCents: order.priceCents, attempt })
        return { status: 'paid', paymentId: ref.id }
      },
      // A fee keeps its own codes, and an error it does not know leaves the row as it is.
      record: false,
      failed: (error, entry) => this.chargeFailed(order, attempt, entry, error),
    })
  }

  /** A fee call that failed: the row stays open for a retry, or the fee is declined. */
  private async chargeFailed(
    order: OrderRecord,
    attempt: number,
    entry: LedgerEntry,
    error: unknown
  ): Promise<FeeOutcome> {
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
}

export const feePayments = new FeePayments()
