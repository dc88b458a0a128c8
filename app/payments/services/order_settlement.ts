import type { OrderRecord } from '#orders/services/order_queries'
import { orderLifecycle, type SuccessDetails } from '#orders/services/order_lifecycle'
import { orderQueries } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderCardData } from '#orders/services/order_card_data'
import { paymentService } from '#payments/services/payment_service'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { crashPoint } from '#core/services/crash_points'
import { feeStatusIsDue } from '#shared/vocabulary'

export type Settlement = {
  fee?: Awaited<ReturnType<typeof paymentService.chargeFee>>
  hold?: Awaited<ReturnType<typeof paymentService.releaseHold>>
  refund?: Awaited<ReturnType<typeof paymentService.refund>>
}

type Settled = { order: OrderRecord; settlement: Settlement }

const idOf = (orderOrId: OrderRecord | number) =>
  typeof orderOrId === 'number' ? orderOrId : orderOrId.id

/**
 * The money that follows an order's transitions. Orders decide the transition (one conditional
 * UPDATE each, in `orderLifecycle`); this runs it and then settles: success -> fee charged, hold
 * released; fail/cancelled -> hold released, any fee refunded. Every step is idempotent and
 * ledger-backed, so calling the same method again after a crash finishes what was left undone.
 *
 * Each method runs the transition and its money under the order's money lock
 * (`withOrderMoney`), so whoever calls it (a release run, a bot's result, the retailer's e-mail,
 * a draw, the console) never moves an order while another money action on it is in flight.
 * Background callers wait for the action in flight (bounded); the console's tools take the lock
 * first themselves and refuse with 409 `order_busy`.
 */
class OrderSettlement {
  async succeed(orderOrId: OrderRecord | number, details: SuccessDetails = {}): Promise<Settled> {
    return withOrderMoney(idOf(orderOrId), async () => {
      await orderLifecycle.succeed(idOf(orderOrId), details)
      return this.settle(idOf(orderOrId))
    })
  }

  async fail(
    orderOrId: OrderRecord | number,
    details: { reason?: string | null; code?: string | null } = {}
  ): Promise<Settled> {
    return withOrderMoney(idOf(orderOrId), async () => {
      await orderLifecycle.fail(idOf(orderOrId), details)
      return this.settle(idOf(orderOrId))
    })
  }

  /** success -> fail, a correction: what was charged of the fee is refunded. */
  async correctToFail(
    orderOrId: OrderRecord | number,
    details: { reason: string; code: string }
  ): Promise<Settled & { changed: boolean }> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const changed = await orderLifecycle.correctToFail(idOf(orderOrId), details)
      return { ...(await this.settle(idOf(orderOrId))), changed }
    })
  }

  /** fail -> success, the retailer's confirmation over the bot's failure: the fee is charged. */
  async correctToSuccess(
    orderOrId: OrderRecord | number,
    details: { confirmationNumber?: string | null } = {}
  ): Promise<Settled & { changed: boolean }> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const changed = await orderLifecycle.correctToSuccess(idOf(orderOrId), details)
      return { ...(await this.settle(idOf(orderOrId))), changed }
    })
  }

  /** success -> retailer_cancelled: the whole fee is refunded under its own key. */
  async retailerCancel(
    orderOrId: OrderRecord | number,
    details: { reason: string }
  ): Promise<Settled & { changed: boolean }> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const changed = await orderLifecycle.retailerCancel(idOf(orderOrId), details)
      return { ...(await this.settle(idOf(orderOrId))), changed }
    })
  }

  async cancel(
    orderOrId: OrderRecord | number,
    details: { reason?: string | null } = {}
  ): Promise<Settled & { cancelled: boolean }> {
    return withOrderMoney(idOf(orderOrId), async () => {
      const cancelled = await orderLifecycle.cancel(idOf(orderOrId), details)
      return { ...(await this.settle(idOf(orderOrId))), cancelled }
    })
  }

  /** Brings the money in line with the order's status. Safe to call any number of times. */
  async settle(orderOrId: OrderRecord | number): Promise<Settled> {
    return withOrderMoney(idOf(orderOrId), () => this.settleLocked(idOf(orderOrId)))
  }

  private async settleLocked(id: number): Promise<Settled> {
    const order = await orderQueries.findById(id)
    const settlement: Settlement = {}
    if (order.status === 'success') {
      settlement.fee = await paymentService.chargeFee(order)
      crashPoint('fee-settled')
      settlement.hold = await paymentService.releaseHold(order)
      await paymentService.releaseSupersededHolds(order)
    } else if (order.status === 'retailer_cancelled') {
      settlement.hold = await paymentService.releaseHold(order)
      await paymentService.releaseSupersededHolds(order)
      if (order.feeStatus === 'paid') {
        settlement.refund = await paymentService.refund(order, { retailerCancel: true })
      } else if (feeStatusIsDue(order.feeStatus)) {
        await orderPaymentState.feeWaived(order.id)
      }
    } else if (order.status === 'fail' || order.status === 'cancelled') {
      settlement.hold = await paymentService.releaseHold(order)
      // A renewal's older hold, kept while the customer was asked to confirm the new one.
      await paymentService.releaseSupersededHolds(order)
      if (order.feeStatus === 'paid') settlement.refund = await paymentService.refund(order)
      else if (feeStatusIsDue(order.feeStatus)) {
        // A fee that was due on an order corrected to failed is never charged now.
        await orderPaymentState.feeWaived(order.id)
      }
    }
    // A final order needs no card data any more (the fee uses the card saved at the gateway).
    await orderCardData.purge(id)
    return { order: await orderQueries.findById(id), settlement }
  }
}

export const orderSettlement = new OrderSettlement()
