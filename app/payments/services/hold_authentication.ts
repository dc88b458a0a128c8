import logger from '@adonisjs/core/services/logger'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { withOrderMoney } from '#payments/services/order_money_lock'
import {
  GatewayRequestError,
  declineMessage,
  type GatewayPayment,
  type PaymentAction,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger } from '#payments/services/ledger'
import { opsLog } from '#core/services/ops_log'
import { holds as holdMetric } from '#core/services/metrics'
import { fresh, idOf } from '#payments/services/gateway_calls'
import { orderLedgerRow, withLedger } from '#payments/services/ledger_step'
import { keysOf } from '#payments/services/payment_keys'
import { holdTimesFrom, type HoldOutcome } from '#payments/services/hold_placement'

/**
 * The payment service's own steps this one goes on with. They are called on the service, not
 * here, so a step replaced on the service (a test standing in for the gateway) is the one run.
 */
type ServiceSteps = {
  recordAuthenticatedHold(order: OrderRecord, paymentId: string): Promise<GatewayPayment | null>
  releaseSupersededHolds(orderOrId: OrderRecord | number): Promise<number>
}

/** A hold the bank asked the customer to authenticate (3-D Secure): confirmed or given up. */
export class HoldAuthentication {
  constructor(private service: ServiceSteps) {}

  /**
   * What the customer needs to authenticate the order's held-back hold (the challenge page or
   * Stripe's client secret); null when the hold does not wait for them.
   */
  async holdAction(orderOrId: OrderRecord | number): Promise<PaymentAction | null> {
    const order = await fresh(orderOrId)
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
      const order = await fresh(orderOrId)
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
      const payment = await this.service.recordAuthenticatedHold(order, paymentId)
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
  async recordAuthenticatedHold(
    order: OrderRecord,
    paymentId: string
  ): Promise<GatewayPayment | null> {
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
      await this.service.releaseSupersededHolds(await fresh(order.id))
      return payment
    })
  }

  /**
   * The customer did not authenticate the hold in time: the waiting payment is cancelled at the
   * gateway (so a late answer can never authorise it), through its own ledger row and the hold's
   * release key, then the hold's row is closed as declined. Throws when the gateway cannot be
   * reached: the caller's claim goes stale and the whole step runs again.
   */
  async abandonHoldAuthentication(order: OrderRecord, paymentId: string): Promise<void> {
    return withOrderMoney(order.id, async () => {
      const row = orderLedgerRow(
        keysOf('holdRelease', order, order.holdRound),
        'hold_release',
        order,
        order.holdAmountCents
      )
      await withLedger<PaymentRef, void>(row, {
        prepare: (entry) =>
          entry.status === 'started' ? { using: undefined } : { answer: undefined },
        call: (entry) => gateway().releaseHold({ paymentId, idempotencyKey: entry.idempotencyKey }),
        ref: (ref) => ref.id,
        done: () => undefined,
        failed: (error) => {
          if (!(error instanceof GatewayRequestError)) throw error
          logger.error({ orderId: order.id, code: error.code }, 'waiting hold not cancelled')
        },
      })
      const entry = await ledger.find(keysOf('hold', order, order.holdRound))
      if (entry && entry.status === 'started') {
        await ledger.fail(entry, 'authentication_required', 'Not authenticated in time.')
      }
    })
  }
}
