import type { ProductRecord } from '#catalog/services/product_queries'
import { opsLog } from '#core/services/ops_log'
import { releaseOrderQueries, type OrderRecord } from '#orders/services/order_queries'
import type { OutcomeSource } from '#release/services/order_outcome'
import { orderOutcome } from '#release/services/order_outcome'
import { releaseResults, type FinishReport } from '#release/services/release_results'
import { releaseTries } from '#release/services/release_tries'
import { restockOpen } from '#release/services/task_plan'

/*
| A product's restock window (`restockUntil`): sold out at the drop is not yet a failure. Orders
| whose every retailer sold out while the window was open stay processing; once it has closed,
| the release run fails each (sold out, nothing charged) through the one outcome path with the
| last retailer's answer. An order with a success, a try still open or a success waiting for
| review is left as it is.
*/
export const restockWindows = {
  /** The orders a closed window decides now. */
  async closable(products: readonly ProductRecord[]): Promise<OrderRecord[]> {
    const closed = products.filter((product) => product.restockUntil && !restockOpen(product))
    if (closed.length === 0) return []
    const orders = await releaseOrderQueries.processing(closed.map((product) => product.id))
    const decided: OrderRecord[] = []
    for (const order of orders) {
      const task = await releaseResults.task(order.id)
      if (!task || task.outcome) continue
      const tries = await releaseTries.forRound(order.id, Number(task.round_number))
      if (tries.length && tries.every((row) => row.status === 'failed')) decided.push(order)
    }
    return decided
  },

  async close(order: OrderRecord): Promise<FinishReport> {
    const task = (await releaseResults.task(order.id))!
    const round = Number(task.round_number)
    const tries = await releaseTries.forRound(order.id, round)
    const last = tries.at(-1)!
    opsLog('order.restock_closed', { order: order.publicId, retailers: tries.length })
    return orderOutcome.apply(
      {
        orderId: order.publicId,
        round,
        retailer: last.retailer,
        status: 'fail',
        reason: last.reason ?? 'Sold out, and no restock before the window closed.',
        reasonCode: last.reason_code ?? 'sold_out',
      },
      { source: task.engine as OutcomeSource, via: 'release:run' }
    )
  },
}
