import db from '@adonisjs/lucid/services/db'
import type Order from '#orders/models/order'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderQueries } from '#orders/services/order_queries'
import { isUniqueViolation } from '#core/helpers/db_errors'
import type PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import type { GatewayEvent } from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger, type Ledger } from '#payments/services/ledger'
import { paymentKeys } from '#payments/services/payment_service'
import { sqlTime } from '#core/helpers/sql_time'

export type WebhookResult = { eventId: string; type: string; duplicate: boolean; outcome: string }

type Target = { order: Order; purpose: 'hold' | 'fee'; entry: PaymentLedgerEntry | null }

/**
 * Provider webhooks (POST /api/hooks/stripe): the signature is verified over the raw body, each
 * event id is applied once (a redelivery is acknowledged and ignored), and only the events that
 * move our state are handled. Every handler is a conditional state move, so an event that
 * repeats what our own call already recorded changes nothing.
 */
export class WebhookService {
  constructor(private ledgerBook: Ledger = ledger) {}

  async receive(rawBody: string, signature: string | undefined): Promise<WebhookResult> {
    const event = gateway().parseWebhook(rawBody, signature)
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
    const object = event.object
    switch (event.type) {
      case 'payment_intent.amount_capturable_updated':
      case 'payment_intent.succeeded': {
        const target = await this.targetOf(object)
        if (!target) return 'unknown_payment'
        if (target.purpose === 'hold' && object.status === 'requires_capture') {
          await this.completeEntry(target.entry, object.id)
          await orderPaymentState.holdPlaced(target.order.id, object.id)
          return 'hold_placed'
        }
        if (target.purpose === 'fee' && object.status === 'succeeded') {
          await this.completeEntry(target.entry, object.id)
          await orderPaymentState.feePaid(target.order.id, object.id)
          return 'fee_paid'
        }
        return 'ignored'
      }
      case 'payment_intent.canceled': {
        const target = await this.targetOf(object)
        if (!target || target.purpose !== 'hold') return 'ignored'
        // Released by us (already recorded) or expired by the provider after 7 days.
        const moved = await orderPaymentState.holdReleased(target.order.id)
        return moved
          ? `hold_${object.cancellation_reason === 'automatic' ? 'expired' : 'released'}`
          : 'hold_released'
      }
      case 'payment_intent.payment_failed': {
        const target = await this.targetOf(object)
        if (!target) return 'unknown_payment'
        const lastError = object.last_payment_error ?? {}
        const code = String(lastError.decline_code ?? lastError.code ?? 'card_declined')
        if (target.entry && target.entry.status === 'started') {
          await this.ledgerBook.fail(target.entry, code, String(lastError.message ?? 'declined'))
        }
        if (target.purpose === 'hold') {
          // The hold worker finishes the decline (cancel, slot back, e-mail) from the ledger row.
          return 'hold_declined'
        }
        await orderPaymentState.feeFailed(
          target.order.id,
          code === 'authentication_required' ? 'requires_action' : 'failed',
          code
        )
        return 'fee_failed'
      }
      case 'charge.refunded':
      case 'refund.created':
      case 'refund.updated': {
        const paymentId = String(object.payment_intent ?? '')
        const refunded = Number(
          event.type === 'charge.refunded' ? object.amount_refunded : object.amount
        )
        if (event.type !== 'charge.refunded' && object.status !== 'succeeded') return 'ignored'
        const entry = paymentId ? await this.ledgerBook.findByGatewayRef(paymentId) : null
        if (!entry?.orderId || entry.kind !== 'fee') return 'unknown_payment'
        await orderPaymentState.feeRefunded(entry.orderId, refunded)
        return 'fee_refunded'
      }
      default:
        return 'ignored'
    }
  }

  /** The order and purpose of a PaymentIntent: from our ledger, or from the metadata we set. */
  private async targetOf(intent: Record<string, any>): Promise<Target | null> {
    const byRef = intent.id ? await this.ledgerBook.findByGatewayRef(String(intent.id)) : null
    if (byRef?.orderId && (byRef.kind === 'hold' || byRef.kind === 'fee')) {
      const order = await orderQueries.findById(byRef.orderId).catch(() => null)
      return order ? { order, purpose: byRef.kind, entry: byRef } : null
    }
    const metadata = intent.metadata ?? {}
    const purpose = metadata.purpose
    if (purpose !== 'hold' && purpose !== 'fee') return null
    let order: Order
    try {
      order = await orderQueries.findByPublicId(metadata.order_id)
    } catch {
      return null
    }
    let entry: PaymentLedgerEntry | null = null
    if (purpose === 'hold') {
      entry = await this.ledgerBook.find(paymentKeys.hold(order.id))
    } else {
      const rows = await this.ledgerBook.forOrder(order.id)
      entry = rows.filter((row) => row.kind === 'fee').at(-1) ?? null
    }
    return { order, purpose, entry }
  }

  private async completeEntry(entry: PaymentLedgerEntry | null, ref: string) {
    if (entry && entry.status === 'started') await this.ledgerBook.succeed(entry, ref)
  }
}

export const webhookService = new WebhookService()
