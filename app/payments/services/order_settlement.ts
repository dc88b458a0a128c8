import type { OrderRecord } from '#orders/services/order_queries'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderQueries } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderCardData } from '#orders/services/order_card_data'
import { paymentService } from '#payments/services/payment_service'
import { crashPoint } from '#core/services/crash_points'
import { feeStatusIsDue } from '#shared/vocabulary'

export type Settlement = {
  fee?: Awaited<ReturnType<typeof paymentService.chargeFee>>
  hold?: Awaited<ReturnType<typeof paymentService.releaseHold>>
  refund?: Awaited<ReturnType<typeof paymentService.refund>>
}

type Settled = { order: OrderRecord; settlement: Settlement }

/**
 * The money that follows an order's transitions. Orders decide the transition (one conditional
 * UPDATE each, in `orderLifecycle`); this runs it and then settles: success -> fee charged, hold
 * released; fail/cancelled -> hold released, any fee refunded. Every step is idempotent and
 * ledger-backed, so calling the same method again after a crash finishes what was left undone.
 */
class OrderSettlement {
  async succeed(
    orderOrId: OrderRecord | number,
    details: { confirmationNumber?: string | null } = {}
  ): Promise<Settled> {
    await orderLifecycle.succeed(orderOrId, details)
    return this.settle(orderOrId)
  }

  async fail(
    orderOrId: OrderRecord | number,
    details: { reason?: string | null; code?: string | null } = {}
  ): Promise<Settled> {
    await orderLifecycle.fail(orderOrId, details)
    return this.settle(orderOrId)
  }

  /** success -> fail, a correction: what was charged of the fee is refunded. */
  async correctToFail(
    orderOrId: OrderRecord | number,
    details: { reason: string; code: string }
  ): Promise<Settled & { changed: boolean }> {
    const changed = await orderLifecycle.correctToFail(orderOrId, details)
    return { ...(await this.settle(orderOrId)), changed }
  }

  async cancel(
    orderOrId: OrderRecord | number,
    details: { reason?: string | null } = {}
  ): Promise<Settled & { cancelled: boolean }> {
    const cancelled = await orderLifecycle.cancel(orderOrId, details)
    return { ...(await this.settle(orderOrId)), cancelled }
  }

  /** Brings the money in line with the order's status. Safe to call any number of times. */
  async settle(orderOrId: OrderRecord | number): Promise<Settled> {
    const id = typeof orderOrId === 'number' ? orderOrId : orderOrId.id
    const order = await orderQueries.findById(id)
    const settlement: Settlement = {}
    if (order.status === 'success') {
      settlement.fee = await paymentService.chargeFee(order)
      crashPoint('fee-settled')
      settlement.hold = await paymentService.releaseHold(order)
    } else if (order.status === 'fail' || order.status === 'cancelled') {
      settlement.hold = await paymentService.releaseHold(order)
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
