import logger from '@adonisjs/core/services/logger'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { withOrderMoney } from '#payments/services/order_money_lock'
import {
  CardDeclinedError,
  GatewayRequestError,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger } from '#payments/services/ledger'
import { opsLog } from '#core/services/ops_log'
import { holds as holdMetric } from '#core/services/metrics'
import { fresh, idOf, isRetryable, recordFailure } from '#payments/services/gateway_calls'
import { orderLedgerRow, withLedger } from '#payments/services/ledger_step'
import { keysOf } from '#payments/services/payment_keys'

export type ReleaseOutcome =
  | { status: 'released' | 'not_placed' }
  | { status: 'retry' | 'failed'; code: string; message: string }

/** Releasing the order's $1.00 holds: the current one, older rounds', one waiting for 3-D Secure. */
class HoldRelease {
  /**
   * Releases (cancels) the order's hold if one was placed, or one still waiting for the
   * customer's authentication; a no-op otherwise or if done.
   */
  async releaseHold(orderOrId: OrderRecord | number): Promise<ReleaseOutcome> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const order = await fresh(orderOrId)
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
  async releaseHoldRound(
    order: OrderRecord,
    round: number,
    paymentId: string
  ): Promise<ReleaseOutcome> {
    return this.releaseCall(order, round, paymentId, false)
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
      const order = await fresh(orderOrId)
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
    const outcome = await this.releaseCall(order, order.holdRound, paymentId, true)
    if (outcome.status !== 'released') return outcome
    const hold = await ledger.find(keysOf('hold', order, order.holdRound))
    if (hold?.status === 'started') {
      await ledger.fail(hold, 'order_closed', 'The order ended before the customer authenticated.')
    }
    await orderPaymentState.waitingHoldCancelled(order.id)
    return { status: 'released' }
  }

  /**
   * The release call of round `round` under its release key: a row that succeeded before is
   * the answer. `waiting`: the payment still waited for the customer's authentication.
   */
  private async releaseCall(
    order: OrderRecord,
    round: number,
    paymentId: string,
    waiting: boolean
  ): Promise<ReleaseOutcome> {
    const row = orderLedgerRow(
      keysOf('holdRelease', order, round),
      'hold_release',
      order,
      order.holdAmountCents
    )
    return withLedger<PaymentRef, ReleaseOutcome>(row, {
      prepare: (entry) =>
        entry.status === 'succeeded' ? { answer: { status: 'released' } } : { using: undefined },
      call: async (entry) => {
        const ref = await gateway().releaseHold({ paymentId, idempotencyKey: entry.idempotencyKey })
        holdMetric.inc({ result: 'released' })
        return ref
      },
      ref: (ref) => ref.id,
      done: () => {
        const logged = { order: order.publicId, amountCents: order.holdAmountCents }
        opsLog('hold.released', waiting ? logged : { ...logged, round })
        return { status: 'released' }
      },
      record: async (entry, error) => {
        holdMetric.inc({ result: 'release_failed' })
        await recordFailure(entry, error)
      },
      failed: (error) => {
        if (isRetryable(error)) return { status: 'retry', code: error.code, message: error.message }
        if (error instanceof GatewayRequestError || error instanceof CardDeclinedError) {
          if (waiting) {
            logger.error({ orderId: order.id, code: error.code }, 'waiting hold not cancelled')
          } else {
            logger.error({ orderId: order.id, code: error.code, round }, 'hold release refused')
          }
          return { status: 'failed', code: error.code, message: error.message }
        }
        throw error
      },
    })
  }
}

export const holdRelease = new HoldRelease()
