import logger from '@adonisjs/core/services/logger'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderTimeline } from '#orders/services/order_timeline'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { AppError } from '#core/exceptions/app_error'
import { orderEmails } from '#notifications/services/order_emails'
import {
  CardDeclinedError,
  GatewayRequestError,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger } from '#payments/services/ledger'
import { opsLog } from '#core/services/ops_log'
import { refundedCents, refunds as refundMetric } from '#core/services/metrics'
import { fresh, idOf, isRetryable } from '#payments/services/gateway_calls'
import { orderLedgerRow, withLedger, type LedgerEntry } from '#payments/services/ledger_step'
import { isLateRefundKey, keysOf } from '#payments/services/payment_keys'

export type RefundOutcome =
  | { status: 'refunded'; refundId: string | null; amountCents: number }
  | { status: 'nothing_to_refund' }
  | { status: 'retry' | 'failed'; code: string; message: string }

/** The next refund of the fee: its key (one left unfinished, or a new one) and its amount. */
type NextRefund = { keys: { key: string; legacyKey: string | null }; amount: number }

/** A refund call that went through, now or on an earlier run (`added` is 0 then). */
type RefundMade = { status: 'made'; refundId: string | null; added: number }

function cents(amount: number) {
  return `$${(amount / 100).toFixed(2)}`
}

/** Money back: the fee (in full or in part), and payments that landed after they were owed. */
class RefundPayments {
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
      const order = await fresh(orderOrId)
      const made = await this.lateRefundCall(order, payment)
      if (made.status !== 'made') return made
      const entry = made.entry
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

  private async refundLocked(
    orderId: number,
    options: { amountCents?: number; retailerCancel?: boolean } = {}
  ): Promise<RefundOutcome> {
    const order = await fresh(orderId)
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

    const next = this.nextRefund(order, refunds, refunded, options)
    if ('status' in next) return next
    const made = await this.refundCall(order, order.feePaymentId, next)
    if (made.status !== 'made') return made
    refunded += made.added
    await orderPaymentState.feeRefundedTo(order.id, refunded, refunded >= order.priceCents)
    return { status: 'refunded', refundId: made.refundId, amountCents: next.amount }
  }

  /**
   * The refund to make: one cut short is finished first (with its own key and amount), else a
   * new one of `amountCents` or of all that is left; nothing when the fee was refunded in full.
   */
  private nextRefund(
    order: OrderRecord,
    refunds: LedgerEntry[],
    refunded: number,
    options: { amountCents?: number; retailerCancel?: boolean }
  ): NextRefund | RefundOutcome {
    const open = refunds.find((row) => row.status === 'started')
    if (open) {
      if (options.amountCents !== undefined && options.amountCents !== open.amountCents) {
        throw AppError.conflict(
          `A refund of ${cents(open.amountCents)} is still being made; finish it first.`,
          'refund_in_progress'
        )
      }
      return { keys: { key: open.idempotencyKey, legacyKey: null }, amount: open.amountCents }
    }
    const remaining = order.priceCents - refunded
    if (remaining <= 0) {
      if (options.amountCents !== undefined) {
        throw AppError.conflict('The fee was refunded in full already.', 'already_refunded')
      }
      return { status: 'refunded', refundId: null, amountCents: refunded }
    }
    const amount = options.amountCents ?? remaining
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > remaining) {
      throw AppError.unprocessable(
        `The refund must be between $0.01 and what is left of the fee (${cents(remaining)}).`,
        { amount: `At most ${cents(remaining)}.` },
        'invalid_refund_amount'
      )
    }
    // The retailer's cancellation gives the rest of the fee back under its own key: the same
    // message read through two doors (or twice) can never refund twice.
    const keys = options.retailerCancel
      ? keysOf('retailerCancelRefund', order)
      : keysOf('refund', order, refunds.length + 1)
    return { keys, amount }
  }

  /** The fee refund's gateway call through its ledger row: a refused row stays refused. */
  private async refundCall(
    order: OrderRecord,
    paymentId: string,
    { keys, amount }: NextRefund
  ): Promise<RefundMade | RefundOutcome> {
    const row = orderLedgerRow(keys, 'refund', order, amount)
    return withLedger<PaymentRef, RefundMade | RefundOutcome>(row, {
      prepare: (entry) => {
        if (entry.status === 'failed') {
          const code = entry.errorCode ?? 'refund_failed'
          return { answer: { status: 'failed', code, message: 'refused' } }
        }
        if (entry.status === 'succeeded') {
          return { answer: { status: 'made', refundId: entry.gatewayRef, added: 0 } }
        }
        return { using: undefined }
      },
      call: async (entry) => {
        const ref = await gateway().refund({
          paymentId,
          amountCents: amount,
          idempotencyKey: entry.idempotencyKey,
        })
        refundMetric.inc({ result: 'refunded' })
        refundedCents.inc(amount)
        return ref
      },
      ref: (ref) => ref.id,
      done: (ref) => {
        opsLog('fee.refunded', { order: order.publicId, amountCents: amount })
        return { status: 'made', refundId: ref.id, added: amount }
      },
      failed: (error) => {
        if (isRetryable(error)) {
          refundMetric.inc({ result: 'retry' })
          return { status: 'retry', code: error.code, message: error.message }
        }
        if (error instanceof GatewayRequestError || error instanceof CardDeclinedError) {
          refundMetric.inc({ result: 'failed' })
          return { status: 'failed', code: error.code, message: error.message }
        }
        throw error
      },
    })
  }

  /** The late payment's refund through its own ledger row: made once, whatever the re-runs. */
  private async lateRefundCall(
    order: OrderRecord,
    payment: { id: string; amountCents: number }
  ): Promise<{ status: 'made'; entry: LedgerEntry } | RefundOutcome> {
    const row = orderLedgerRow(
      keysOf('lateRefund', order, payment.id),
      'refund',
      order,
      payment.amountCents
    )
    return withLedger<PaymentRef, { status: 'made'; entry: LedgerEntry } | RefundOutcome>(row, {
      prepare: (entry) => {
        if (entry.status === 'failed') {
          const code = entry.errorCode ?? 'refund_failed'
          return { answer: { status: 'failed', code, message: 'refused' } }
        }
        if (entry.status !== 'started') return { answer: { status: 'made', entry } }
        return { using: undefined }
      },
      call: (entry) =>
        gateway().refund({
          paymentId: payment.id,
          amountCents: payment.amountCents,
          idempotencyKey: entry.idempotencyKey,
        }),
      ref: (ref) => ref.id,
      done: (_ref, entry) => {
        opsLog('fee.late_refunded', { order: order.publicId, amountCents: payment.amountCents })
        return { status: 'made', entry }
      },
      failed: (error) => {
        if (isRetryable(error)) {
          return { status: 'retry', code: error.code, message: error.message }
        }
        if (error instanceof GatewayRequestError || error instanceof CardDeclinedError) {
          logger.error({ orderId: order.id, code: error.code }, 'late payment not refunded')
          return { status: 'failed', code: error.code, message: error.message }
        }
        throw error
      },
    })
  }
}

export const refundPayments = new RefundPayments()
