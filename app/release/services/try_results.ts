import { opsLog } from '#core/services/ops_log'
import { orderEmails } from '#notifications/services/order_emails'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'
import { createEngine } from '#release/services/checkout_engines'
import type { EngineName } from '#release/services/release_config'
import type { CheckoutResult, FinishReport, TaskRow } from '#release/services/release_results'
import { OPEN_TRY_STATUSES, releaseTries, type TryRow } from '#release/services/release_tries'
import { taskIds } from '#release/services/task_ids'
import { formatCents } from '#shared/pricing'
import { ladderWords } from '#shared/slot_choices'
import { retailerName } from '#shared/vocabulary'
import { productQueries } from '#catalog/services/product_queries'
import { failureCode } from '#orders/services/failure_reasons'
import { restockOpen } from '#release/services/task_plan'

/** Why a result for one retailer's try was not applied. */
export type TryRejection = { status: number; code: string; reason: string }

/**
 * What a result for one retailer's try means for its order (docs/release-day.md, "Several
 * retailers"): `decide` the order as before (`retailer`: the try that decides it, null for an
 * order without tries), `done` (recorded on the try alone: a sold-out while another retailer is
 * still trying, a success after the order was won elsewhere), or `refused`.
 */
export type TryDecision =
  | { kind: 'decide'; retailer: string | null }
  | { kind: 'done'; report: FinishReport }
  | { kind: 'refused'; rejection: TryRejection }

const ENDED_SUCCESSES = ['won', 'extra_success', 'over_cap']

/** A size as bots and retailers' e-mails write it (`US 10.5`, `10.5`, `m`): compared without the region. */
function sizeKey(size: string) {
  return size
    .trim()
    .toLowerCase()
    .replace(/^(?:us|uk|eu)\s*/, '')
    .replace(/\s+/g, '')
}

function report(
  order: OrderRecord,
  outcome: 'success' | 'fail',
  stillTrying = false
): FinishReport {
  return { order, outcome, done: !stillTrying, feeCharged: false, feeDue: false, stillTrying }
}

/** The try a result is for: the one its task id names, or an order's only one. */
function tryOf(tries: TryRow[], retailer: string | null | undefined): TryRow | TryRejection {
  const row = retailer
    ? tries.find((candidate) => candidate.retailer === retailer)
    : tries.length === 1
      ? tries[0]
      : undefined
  if (row) return row
  return {
    status: 409,
    code: 'unknown_try',
    reason: retailer
      ? `This order was not sent to ${retailerName(retailer)} in this round.`
      : 'This order is tried at several retailers: send the task id of the retailer this result is for.',
  }
}

export const tryResults = {
  /** Checks and records a result on its try before the order's own result, when it has tries. */
  async decide(
    order: OrderRecord,
    result: CheckoutResult,
    task: TaskRow | null,
    actor: string,
    source: 'engine' | 'mail' = 'engine'
  ): Promise<TryDecision> {
    // A retailer's e-mail names no round: it is about the order as it is now.
    const named = source === 'mail' ? Number(task?.round_number ?? 1) : (result.round ?? 1)
    if (!task || named !== Number(task.round_number)) {
      return { kind: 'decide', retailer: null }
    }
    const round = Number(task.round_number)
    const tries = await releaseTries.forRound(order.id, round)
    if (tries.length === 0) return { kind: 'decide', retailer: null }
    const row = tryOf(tries, result.retailer)
    if (!('retailer' in row)) return { kind: 'refused', rejection: row }
    const target = { orderId: order.id, round, retailer: row.retailer }
    // Won: the order succeeded, or a success is recorded (not one waiting for the retailer's mail).
    const won =
      order.status === 'success' || (task.outcome === 'success' && task.status !== 'awaiting_mail')

    if (result.status === 'success') {
      const refused = await this.refuseSuccess(order, result, target)
      if (refused) return { kind: 'refused', rejection: refused }
      if (row.status === 'won' || !won) return { kind: 'decide', retailer: row.retailer }
      await this.extraSuccess(order, result, target, actor)
      return { kind: 'done', report: report(await orderQueries.findById(order.id), 'success') }
    }

    if (ENDED_SUCCESSES.includes(row.status)) {
      return {
        kind: 'refused',
        rejection: {
          status: 409,
          code: 'result_already_recorded',
          reason: `A success at ${retailerName(row.retailer)} is already recorded for this order.`,
        },
      }
    }
    const failure = {
      reason: result.reason?.slice(0, 255) ?? null,
      // The category (sold_out, declined...), as the order's own failure keeps it.
      reason_code: failureCode(result.reasonCode, result.reason),
    }
    await releaseTries.move(target, [...OPEN_TRY_STATUSES, 'cancelled'], 'failed', failure)
    if (won) return { kind: 'done', report: report(order, 'success') }
    const after = await releaseTries.forRound(order.id, round)
    const open = after.filter((candidate) => OPEN_TRY_STATUSES.includes(candidate.status))
    const product = await productQueries.find(order.productId)
    if (open.length === 0 && !restockOpen(product)) {
      return { kind: 'decide', retailer: row.retailer }
    }
    const still = open.length
      ? `Still trying ${open.map((candidate) => retailerName(candidate.retailer)).join(', ')}.`
      : `Restocks are tried until ${product!.restockUntil!.toUTC().toISO()}.`
    await orderTimeline.append({
      orderId: order.id,
      kind: 'try_failed',
      from: order.status,
      to: order.status,
      actor,
      note: `${retailerName(row.retailer)}: ${result.reason ?? 'not secured'}. ${still}`,
      meta: { retailer: row.retailer, round },
    })
    return { kind: 'done', report: report(order, 'fail', true) }
  },

  /** A success the buyer did not agree to pay for: a size off the ladder, a total over the cap. */
  async refuseSuccess(
    order: OrderRecord,
    result: CheckoutResult,
    target: { orderId: number; round: number; retailer: string }
  ): Promise<TryRejection | null> {
    const ladder = slotChoiceColumns.ladderOf(order)
    const size = result.size ? sizeKey(result.size) : null
    let rejection: TryRejection | null = null
    if (size && !ladder.some((candidate) => sizeKey(candidate) === size)) {
      rejection = {
        status: 409,
        code: 'size_not_chosen',
        reason: `Size ${result.size} is not one the buyer chose (${ladderWords(ladder)}): not a success to charge a fee on. Review it with the retailer.`,
      }
    }
    const cap = order.maxItemPriceCents
    if (
      !rejection &&
      cap !== null &&
      typeof result.totalCents === 'number' &&
      result.totalCents > cap
    ) {
      rejection = {
        status: 409,
        code: 'above_price_cap',
        reason: `${retailerName(target.retailer)} charged ${formatCents(result.totalCents)}, above the buyer's cap of ${formatCents(cap)}: not a success to charge a fee on. Review it with the retailer.`,
      }
    }
    if (!rejection) return null
    await releaseTries.move(target, [...OPEN_TRY_STATUSES, 'cancelled', 'failed'], 'over_cap', {
      size: result.size ?? null,
      confirmation_number: result.confirmationNumber?.slice(0, 120) ?? null,
      reason: rejection.reason.slice(0, 255),
    })
    opsLog('order.review', {
      order: order.publicId,
      retailer: target.retailer,
      code: rejection.code,
    })
    return rejection
  },

  /** A second retailer's success for an order already won: recorded, flagged, never charged. */
  async extraSuccess(
    order: OrderRecord,
    result: CheckoutResult,
    target: { orderId: number; round: number; retailer: string },
    actor: string
  ) {
    const moved = await releaseTries.move(
      target,
      [...OPEN_TRY_STATUSES, 'cancelled', 'failed'],
      'extra_success',
      {
        size: result.size ?? null,
        confirmation_number: result.confirmationNumber?.slice(0, 120) ?? null,
      }
    )
    if (!moved) return
    opsLog('order.extra_success', { order: order.publicId, retailer: target.retailer })
    await orderTimeline.append({
      orderId: order.id,
      kind: 'extra_success',
      from: order.status,
      to: order.status,
      actor,
      note: `${retailerName(target.retailer)} also confirmed this order${result.size ? ` (size ${result.size})` : ''}: no second fee. The buyer was told to keep it or cancel it with the retailer.`,
      meta: { retailer: target.retailer, confirmationNumber: result.confirmationNumber ?? null },
    })
    const current = await orderQueries.findById(order.id)
    await orderEmails.sendExtraSuccess(current, {
      retailer: target.retailer,
      size: result.size ?? null,
      confirmationNumber: result.confirmationNumber ?? null,
    })
  },

  /**
   * The try that won, and the others of its round cancelled, at the engine too: a signed cancel
   * to the webhook bot, the task file removed for the files engine. A cancel that cannot be
   * delivered is logged; a success of that try later is an extra success, never a second fee.
   */
  async won(order: OrderRecord, task: TaskRow, result: CheckoutResult, retailer: string) {
    const round = Number(task.round_number)
    await releaseTries.move(
      { orderId: order.id, round, retailer },
      [...OPEN_TRY_STATUSES, 'failed'],
      'won',
      {
        size: result.size ?? null,
        confirmation_number: result.confirmationNumber?.slice(0, 120) ?? null,
      }
    )
    const cancelled = await releaseTries.cancelOpen(order.id, round, retailer)
    if (cancelled.length === 0) return
    let engine
    try {
      engine = createEngine(task.engine as EngineName)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      opsLog('order.cancel_failed', { order: order.publicId, error: message })
      return
    }
    for (const row of cancelled) {
      try {
        await engine.cancel?.({
          taskId: taskIds.build(order.publicId, round, row.retailer),
          orderId: order.publicId,
          retailer: row.retailer,
        })
      } catch (error) {
        opsLog('order.cancel_failed', {
          order: order.publicId,
          retailer: row.retailer,
          error: error instanceof Error ? error.message : String(error),
        })
      }
    }
  },
}
