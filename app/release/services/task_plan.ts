import type { DateTime } from 'luxon'
import { productRetailers, type RetailerEntry } from '#catalog/services/product_retailers'
import { productQueries, type ProductRecord } from '#catalog/services/product_queries'
import { clock } from '#core/services/clock'
import type { OrderRecord } from '#orders/services/order_queries'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'
import { retailerName } from '#shared/vocabulary'
import { taskIds } from '#release/services/task_ids'
import type { AcoRetailer } from '#profiles/services/bot_export_formats'

/** The retailer a task is for (its release time: the retailer's own, else the product's). */
export type TaskRetailer = AcoRetailer

/** What a task of an order carries beyond the order itself (docs/release-day.md). */
export type TaskPlan = {
  /** The sizes to try, in order: the buyer's ladder, or their one size. */
  sizes: string[]
  /**
   * Where to try, in the product's order: every retailer the buyer accepts whose known price is
   * within their cap, a task each. Empty for a product that names no retailer (one task, as
   * before retailers were listed).
   */
  retailers: TaskRetailer[]
  /** The most the buyer pays the retailer for the item with shipping; null: no cap. */
  maxItemPriceCents: number | null
}

/** Why an order gets no task: every retailer it accepts is above its cap, or none is left. */
export type NoTask = { code: 'price_cap' | 'other'; reason: string }

/**
 * The tasks of an order: its ladder, at each retailer of the release (in the product's order)
 * that the buyer accepts and whose known price is within the buyer's cap. A retailer whose price
 * is not known is tried: the cap is checked again on the result.
 */
export function planTask(
  order: Pick<OrderRecord, 'size' | 'sizeLadder' | 'retailerChoice' | 'maxItemPriceCents'>,
  retailers: readonly RetailerEntry[],
  productReleaseAt: DateTime | null
): TaskPlan | NoTask {
  const choices = slotChoiceColumns.read(order)
  const sizes = slotChoiceColumns.ladderOf(order)
  const cap = choices.maxItemPriceCents
  if (retailers.length === 0) return { sizes, retailers: [], maxItemPriceCents: cap }
  const accepted = retailers.filter(
    (entry) => !choices.retailerChoice || choices.retailerChoice.includes(entry.retailer)
  )
  if (accepted.length === 0) {
    return {
      code: 'other',
      reason: 'None of the retailers the buyer accepts releases this product any more.',
    }
  }
  const chosen = accepted.filter(
    (entry) => cap === null || entry.priceCents === null || entry.priceCents <= cap
  )
  if (chosen.length === 0) {
    return {
      code: 'price_cap',
      reason: `Not sent: every retailer the buyer accepts is above their price cap of ${cap} cents.`,
    }
  }
  return {
    sizes,
    retailers: chosen.map((entry) => ({
      retailer: entry.retailer,
      name: retailerName(entry.retailer),
      url: entry.url,
      priceCents: entry.priceCents,
      releaseAt: (entry.releaseAt ?? productReleaseAt)?.toUTC().toISO() ?? null,
    })),
    maxItemPriceCents: cap,
  }
}

/**
 * The retailer a task id names: only an order tried at several retailers has one per retailer
 * (`task-{order}-{round}-{retailer}`); at one retailer it keeps the id bots knew before
 * (`task-{order}-{round}`).
 */
export function retailerInTaskId(plan: TaskPlan, retailer: TaskRetailer | null): string | null {
  return plan.retailers.length > 1 ? (retailer?.retailer ?? null) : null
}

/**
 * What every task of an order says, to a bot over the webhook and in an ACO export alike: the
 * order, the round, the task id its result comes back under, the size ladder, the retailer and
 * the buyer's price cap.
 */
export function taskOf(
  order: Pick<OrderRecord, 'publicId' | 'productId' | 'productTitle' | 'style' | 'size'>,
  round: number,
  plan: TaskPlan,
  retailer: TaskRetailer | null
) {
  return {
    taskId: taskIds.build(order.publicId, round, retailerInTaskId(plan, retailer)),
    orderId: order.publicId,
    round,
    productId: order.productId,
    productTitle: order.productTitle,
    style: order.style,
    size: order.size,
    sizes: plan.sizes,
    retailer,
    maxItemPriceCents: plan.maxItemPriceCents,
  }
}

/** A product's restock window is open: the bot keeps trying until `restockUntil`. */
export function restockOpen(product: Pick<ProductRecord, 'restockUntil'> | null): boolean {
  return Boolean(product?.restockUntil && product.restockUntil.toMillis() > clock.nowMs())
}

export function isNoTask(plan: TaskPlan | NoTask): plan is NoTask {
  return 'code' in plan
}

type Release = { retailers: RetailerEntry[]; releaseAt: DateTime | null }

/** Each product's retailers and release time, read once per run or export. */
export class TaskPlanner {
  private releases = new Map<number, Promise<Release>>()

  private releaseOf(productId: number): Promise<Release> {
    let release = this.releases.get(productId)
    if (!release) {
      release = Promise.all([
        productRetailers.listFor(productId),
        productQueries.find(productId),
      ]).then(([retailers, product]) => ({ retailers, releaseAt: product?.releaseAt ?? null }))
      this.releases.set(productId, release)
    }
    return release
  }

  async plan(order: OrderRecord): Promise<TaskPlan | NoTask> {
    const { retailers, releaseAt } = await this.releaseOf(order.productId)
    return planTask(order, retailers, releaseAt)
  }
}
