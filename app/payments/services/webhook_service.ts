import db from '@adonisjs/lucid/services/db'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderPaymentState, WAITING_STATUSES } from '#orders/services/order_payment_state'
import { orderQueries } from '#orders/services/order_queries'
import { isUniqueViolation } from '#core/helpers/db_errors'
import type PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import type { GatewayEvent, GatewayPayment } from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger, type Ledger } from '#payments/services/ledger'
import { holdTimesFrom, keysOf, paymentService } from '#payments/services/payment_service'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { holdWorker } from '#payments/services/hold_worker'
import { sqlTime } from '#core/helpers/sql_time'
import { FEE_CHARGEABLE_STATUSES, feeStatusAfterDecline } from '#shared/vocabulary'
import { WebhookSignatureError } from '#payments/gateways/payment_gateway'
import { countBadSignature } from '#core/services/bad_signatures'

export type WebhookResult = { eventId: string; type: string; duplicate: boolean; outcome: string }

type Target = { order: OrderRecord; purpose: 'hold' | 'fee'; entry: PaymentLedgerEntry }

const PAYMENT_EVENTS = new Set([
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.canceled',
  'payment_intent.payment_failed',
])
const REFUND_EVENTS = new Set(['charge.refunded', 'refund.created', 'refund.updated'])

/**
 * Provider webhooks (POST /api/hooks/stripe): the signature is verified over the raw body (and
 * its timestamp, both ways), each event id is applied once (a redelivery is acknowledged and
 * ignored), and only the events that move our state are handled.
 *
 * An event is a hint, never the source of truth: its object is matched to a ledger row we wrote
 * (by the gateway ref, or by the order and purpose when a crash left the ref unrecorded) and read
 * back from the gateway; state moves only from what the gateway reports now, by conditional
 * updates, so an event that repeats what our own call recorded changes nothing. An event about a
 * payment we never made is acknowledged as `unknown_payment` and changes nothing.
 */
export class WebhookService {
  constructor(private ledgerBook: Ledger = ledger) {}

  async receive(rawBody: string, signature: string | undefined): Promise<WebhookResult> {
    let event: GatewayEvent
    try {
      event = gateway().parseWebhook(rawBody, signature)
    } catch (error) {
      if (error instanceof WebhookSignatureError) countBadSignature('stripe')
      throw error
    }
    const provider = 'stripe'

    try {
      await db.table('webhook_events').insert({
        provider,
        event_id: event.id.slice(0, 120),
        type: event.type.slice(0, 80),
        outcome: null,
        processed_at: null,
        created_at: sqlTime(),
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      const seen = await db.from('webhook_events').where({ provider, event_id: event.id }).first()
      // Finished before: a redelivery. Not finished (we crashed while applying it): apply again.
      if (seen?.processed_at) {
        return { eventId: event.id, type: event.type, duplicate: true, outcome: seen.outcome }
      }
    }

    const outcome = await this.apply(event)
    await db
      .from('webhook_events')
      .where({ provider, event_id: event.id })
      .update({ outcome, processed_at: sqlTime() })
    return { eventId: event.id, type: event.type, duplicate: false, outcome }
  }

  async apply(event: GatewayEvent): Promise<string> {
    if (PAYMENT_EVENTS.has(event.type)) {
      const id = typeof event.object.id === 'string' ? event.object.id : ''
      return this.syncPayment(id)
    }
    if (REFUND_EVENTS.has(event.type)) {
      const object = event.object
      if (event.type === 'charge.refunded') {
        const id = typeof object.payment_intent === 'string' ? object.payment_intent : ''
        return this.syncRefunds(id)
      }
      const refund =
        typeof object.id === 'string' && object.id
          ? await gateway().retrieveRefund(object.id)
          : null
      if (!refund) return 'unknown_payment'
      if (refund.status !== 'succeeded') return 'ignored'
      return this.syncRefunds(refund.paymentId)
    }
    return 'ignored'
  }

  /**
   * A hold or fee, from the gateway's own answer about the payment. Applied under the order's
   * money lock (an action in flight finishes first; past the wait the delivery is answered
   * 409 and the provider delivers it again), from the order and payment as they are then.
   */
  private async syncPayment(id: string): Promise<string> {
    const found = id ? await gateway().retrievePayment(id) : null
    if (!found) return 'unknown_payment'
    const matched = await this.targetOf(found)
    if (!matched) return 'unknown_payment'
    return withOrderMoney(matched.order.id, async () => {
      const payment = (await gateway().retrievePayment(found.id)) ?? found
      const target = await this.targetOf(payment)
      if (!target) return 'unknown_payment'
      return this.applyPayment(payment, target)
    })
  }

  private async applyPayment(payment: GatewayPayment, target: Target): Promise<string> {
    const { order, purpose, entry } = target

    if (purpose === 'hold' && payment.status === 'requires_capture') {
      await this.completeEntry(entry, payment.id)
      // An older round's hold (renewed since): the order has moved on to another payment.
      if (order.holdPaymentId && order.holdPaymentId !== payment.id) return 'hold_superseded'
      await orderPaymentState.holdPlaced(order.id, payment.id, {
        times: holdTimesFrom(payment.captureBefore),
      })
      // A renewal confirmed by the customer: the round it replaces is released now.
      await paymentService.releaseSupersededHolds(order.id)
      return 'hold_placed'
    }
    if (purpose === 'hold' && payment.status === 'canceled') {
      await this.completeEntry(entry, payment.id)
      // An older round's hold (a renewal released it): the order has moved on.
      if (order.holdPaymentId && order.holdPaymentId !== payment.id) return 'hold_superseded'
      if (WAITING_STATUSES.includes(order.status) && order.holdStatus === 'placed') {
        // The hold of an order still waiting lapsed at the provider (or was cancelled there):
        // never left without one, it is renewed now, as before an expiry.
        const renewal = await holdWorker.renewOne(order.id, { lapsed: true })
        if (renewal.status === 'renewed') return 'hold_renewed'
        if (renewal.status === 'declined') return 'hold_renewal_declined'
        if (renewal.status === 'requires_action') return 'hold_renewal_requires_action'
        // The provider could not be reached for the new hold: the sweep renews it shortly.
        return 'hold_expired'
      }
      // Released by us (recorded or not yet recorded).
      const moved = await orderPaymentState.holdReleased(order.id)
      return moved && payment.cancellationReason === 'automatic' ? 'hold_expired' : 'hold_released'
    }
    if (purpose === 'fee' && payment.status === 'succeeded') {
      if (order.feePaymentId === payment.id) {
        await this.completeEntry(entry, payment.id)
        return 'fee_paid'
      }
      const owed = order.status === 'success' && FEE_CHARGEABLE_STATUSES.includes(order.feeStatus)
      // The gateway reports the money moved: the row says so, even one we recorded as failed.
      await this.ledgerBook.landed(entry, payment.id)
      if (owed) {
        await orderPaymentState.feePaid(order.id, payment.id)
        return 'fee_paid'
      }
      // Landed after the order stopped owing it (waived, refunded, corrected, failed, or
      // charged by another attempt): given back at once, under its own key.
      const refund = await paymentService.refundLatePayment(order, {
        id: payment.id,
        amountCents: payment.amountCents,
      })
      return refund.status === 'refunded' ? 'late_payment_refunded' : 'late_payment_refund_pending'
    }
    if (payment.status === 'requires_payment_method' && payment.lastError) {
      const code = payment.lastError.declineCode ?? payment.lastError.code
      // Not final: the customer may still authenticate this hold (the hold worker gives up on
      // it at its deadline).
      if (
        purpose === 'hold' &&
        ['authentication_required', 'payment_intent_authentication_failure'].includes(code)
      ) {
        return 'hold_requires_action'
      }
      if (entry.status === 'started') {
        await this.ledgerBook.fail(entry, code, payment.lastError.message || 'declined')
      }
      // The hold worker finishes a declined hold (cancel, slot back, e-mail) from the ledger row.
      if (purpose === 'hold') return 'hold_declined'
      await orderPaymentState.feeFailed(order.id, feeStatusAfterDecline(code), code)
      return 'fee_failed'
    }
    return 'ignored'
  }

  /** Refunds of a fee we charged: the amount refunded so far, as the gateway reports it. */
  private async syncRefunds(paymentId: string): Promise<string> {
    const payment = paymentId ? await gateway().retrievePayment(paymentId) : null
    if (!payment) return 'unknown_payment'
    const entry = await this.ledgerBook.findByGatewayRef(payment.id)
    if (!entry?.orderId || entry.kind !== 'fee') return 'unknown_payment'
    if (payment.amountRefundedCents <= 0) return 'ignored'
    // Refunds of a payment that is not the order's fee (one refunded as a late payment).
    const order = await orderQueries.find(entry.orderId)
    if (order?.feePaymentId !== payment.id) return 'ignored'
    // A partial refund keeps the fee `paid` with what went back; all of it makes it `refunded`.
    const total = payment.amountRefundedCents
    await orderPaymentState.feeRefundedTo(entry.orderId, total, total >= payment.amountCents)
    return 'fee_refunded'
  }

  /**
   * The order, purpose and ledger row of a payment: the row that recorded its ref, or (a crash
   * before the ref was recorded) the row of the order and purpose in the gateway's metadata, if
   * that row has no other ref. Without a row of ours, the payment is not ours to act on.
   */
  private async targetOf(payment: GatewayPayment): Promise<Target | null> {
    const byRef = await this.ledgerBook.findByGatewayRef(payment.id)
    if (byRef) {
      if (!byRef.orderId || (byRef.kind !== 'hold' && byRef.kind !== 'fee')) return null
      const order = await orderQueries.findById(byRef.orderId).catch(() => null)
      return order ? { order, purpose: byRef.kind, entry: byRef } : null
    }
    const purpose = payment.metadata.purpose
    const publicId = payment.metadata.order_id
    if ((purpose !== 'hold' && purpose !== 'fee') || !publicId) return null
    const order = await orderQueries.findByPublicId(publicId).catch(() => null)
    if (!order) return null
    let entry: PaymentLedgerEntry | null
    if (purpose === 'hold') {
      entry = await this.ledgerBook.find(keysOf('hold', order, order.holdRound))
    } else {
      // The latest fee call that has no other payment recorded.
      const rows = await this.ledgerBook.forOrder(order.id)
      entry =
        rows
          .filter((row) => row.kind === 'fee' && (!row.gatewayRef || row.gatewayRef === payment.id))
          .at(-1) ?? null
    }
    if (!entry || (entry.gatewayRef && entry.gatewayRef !== payment.id)) return null
    if (entry.amountCents !== payment.amountCents) return null
    return { order, purpose, entry }
  }

  private async completeEntry(entry: PaymentLedgerEntry, ref: string) {
    if (entry.status === 'started') await this.ledgerBook.succeed(entry, ref)
  }
}

export const webhookService = new WebhookService()
