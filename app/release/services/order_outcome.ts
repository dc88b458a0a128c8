import db from '@adonisjs/lucid/services/db'
import { productQueries } from '#catalog/services/product_queries'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderQueries } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { failureCode } from '#orders/services/failure_reasons'
import type { AuditActor } from '#core/services/audit_log_service'
import { AppError } from '#core/exceptions/app_error'
import { transitionRefusal } from '#orders/services/transition_refusal'
import { affectedRows } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { crashPoint } from '#core/services/crash_points'
import { jobs } from '#core/jobs/jobs'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { tryResults } from '#release/services/try_results'
import { completeResult } from '#release/services/outcome_completion'
import { outcomeEvidence } from '#release/services/outcome_evidence'
import {
  ENGINES,
  labelOf,
  type Completion,
  type OutcomeContext,
  type OutcomePlan,
  type OutcomeSource,
  type Rejection,
} from '#release/services/outcome_context'
import {
  releaseResults,
  type CheckoutResult,
  type FinishReport,
  type TaskRow,
} from '#release/services/release_results'

export type {
  Completion,
  OutcomeContext,
  OutcomePlan,
  OutcomeSource,
  Rejection,
} from '#release/services/outcome_context'

/**
 * The one outcome path (docs/decisions.md, "Release day"). Every way an order's result arrives (the
 * simulator within a run, a bot's callback, a results file, `orders:mark`, the console's Mark
 * buttons) comes here: the result is checked against the order and its release task first (nothing
 * is written for a result that is refused), then recorded on the task and applied (the lifecycle
 * moves the order and settles the money: fee on success, hold released; the customer is e-mailed
 * once), appended to the order's timeline and written to the audit log with who sent it.
 */
export class OrderOutcome {
  /** Checks a result without changing anything: null when it may be applied. */
  async check(
    order: OrderRecord | null,
    result: Pick<CheckoutResult, 'status' | 'round'>,
    source: OutcomeSource,
    task?: TaskRow | null
  ): Promise<Rejection | null> {
    if (!order) {
      return {
        status: 404,
        code: 'unknown_order',
        reason: 'Order not found: no order has this id.',
      }
    }
    const manual = source === 'manual'
    if (source === 'mail') {
      const refused = outcomeEvidence().mailRefusal(order)
      if (refused) return refused
    }
    const current = task === undefined ? await releaseResults.task(order.id) : task
    if (!manual) {
      const stale = roundRefusal(result.round ?? null, Number(current?.round_number ?? 1))
      if (stale) return stale
    }
    const wanted = result.status === 'success' ? 'marked successful' : 'marked failed'
    if (order.status === 'cancelled') {
      return manual
        ? refusal(order, wanted)
        : {
            status: 409,
            code: 'order_cancelled',
            reason: 'This order was cancelled; it cannot have a result.',
          }
    }
    if (
      (order.status === 'success' && result.status === 'fail') ||
      (order.status === 'fail' && result.status === 'success')
    ) {
      return manual
        ? refusal(order, wanted)
        : {
            status: 409,
            code: 'order_already_final',
            reason: `This order already ended as ${order.status}; the result was not applied.`,
          }
    }
    if (current?.outcome && current.outcome !== result.status) {
      return {
        status: 409,
        code: 'result_already_recorded',
        reason: `A ${current.outcome} result is already recorded for this order and being applied.`,
      }
    }
    if (manual) {
      const product = await productQueries.find(order.productId)
      if (!product?.isReleased) {
        return {
          status: 409,
          code: 'product_not_released',
          reason:
            'This release has not dropped yet: an order can be marked by hand only once its product is released.',
        }
      }
      return null
    }
    if (
      ENGINES.has(source) &&
      (!current ||
        current.engine !== source ||
        current.run_id === null ||
        Number(current.submit_attempts) < 1)
    ) {
      return {
        status: 409,
        code: 'not_submitted',
        reason: `This order was not submitted to the ${source} checkout engine in a release run.`,
      }
    }
    return null
  }

  /** What applying a result would do (dry runs): refused with a reason, or the plan. */
  async plan(
    result: CheckoutResult,
    source: OutcomeSource
  ): Promise<{ rejection: Rejection } | { plan: OutcomePlan }> {
    const order = await this.find(result.orderId)
    const rejection = await this.check(order, result, source)
    if (rejection) return { rejection }
    const repeat = order!.status === result.status
    return {
      plan: {
        orderId: order!.publicId,
        customer: order!.email,
        outcome: result.status,
        from: order!.status,
        repeat,
        feeCents:
          result.status === 'success' && !repeat && order!.feeStatus === 'none'
            ? order!.priceCents
            : 0,
      },
    }
  }

  /**
   * Checks a result, then records and applies it. A refused result throws an `AppError` with the
   * rejection's status and code, and changes nothing on the order (the refusal is noted on its
   * timeline). Repeating a result already applied is harmless: nothing moves twice.
   */
  async apply(result: CheckoutResult, context: OutcomeContext): Promise<FinishReport> {
    const order = await this.find(result.orderId)
    const task = order ? await releaseResults.task(order.id) : null
    const actor =
      context.actor ??
      (task?.run_id ? { label: `release:run #${task.run_id}` } : { label: context.source })
    const rejection = await this.check(order, result, context.source, task)
    if (rejection) await this.refuse(order, result, context, actor, rejection)
    // An order tried at several retailers: the result is first a try's (docs/release-day.md).
    const decision =
      ENGINES.has(context.source) || context.source === 'mail'
        ? await tryResults.decide(
            order!,
            result,
            task,
            labelOf(actor),
            context.source === 'mail' ? 'mail' : 'engine'
          )
        : ({ kind: 'decide', retailer: null } as const)
    if (decision.kind === 'refused') {
      return this.refuse(order, result, context, actor, decision.rejection)
    }
    if (decision.kind === 'done') return decision.report

    // SUCCESS_EVIDENCE=mail: a bot's success leaves the order processing, its fee waiting for
    // the retailer's signed confirmation (which comes back here as `mail`).
    const awaitsMail = outcomeEvidence().engineSuccessWaits()
    if (awaitsMail && ENGINES.has(context.source) && result.status === 'success') {
      return this.awaitMail(order!, result, context, actor)
    }
    const changed = await this.record(order!, result, context.source, decision.retailer)
    if (decision.retailer && result.status === 'success') {
      const extra = await this.settleTries(order!, result, decision.retailer, changed, actor)
      if (extra) return extra
    }
    const completion: Completion = {
      orderId: order!.id,
      before: order!.status,
      changed,
      context: { ...context, actor },
    }
    if (changed && ENGINES.has(context.source) && jobs.driverName === 'bullmq') {
      // The money of a result moves on the gateway queue, within the gateway's rate however
      // many results arrive at once; the task stays `resulted` until the job has done it all.
      await jobs.dispatch('release.complete-result', completion)
      return {
        order: order!,
        outcome: result.status,
        done: false,
        queued: true,
        feeCharged: false,
        feeDue: false,
      }
    }
    return this.complete(completion)
  }

  /** Records the result on the order's release task: true when this delivery recorded it. */
  private async record(
    order: OrderRecord,
    result: CheckoutResult,
    source: OutcomeSource,
    retailer: string | null
  ): Promise<boolean> {
    const code = result.status === 'fail' ? failureCode(result.reasonCode, result.reason) : null
    await releaseResults.ensureTask(order, source, null)
    const recorded = await db
      .from('release_tasks')
      .where('order_id', order.id)
      .whereIn(
        'status',
        source === 'mail'
          ? ['submitting', 'submitted', 'awaiting_mail']
          : ['submitting', 'submitted']
      )
      .update({
        status: 'resulted',
        outcome: result.status,
        confirmation_number: result.confirmationNumber?.slice(0, 120) ?? null,
        reason: result.reason?.slice(0, 255) ?? null,
        reason_code: code,
        retailer,
        won_size: result.status === 'success' ? (result.size?.slice(0, 16) ?? null) : null,
        result_at: sqlTime(),
      })
    const changed = affectedRows(recorded) === 1
    crashPoint('result-recorded')
    return changed
  }

  /**
   * A retailer's success: the won try (the others cancelled), or, when another retailer's success
   * was recorded first, an extra success (its report; no fee). Null: the order goes on as decided.
   */
  private async settleTries(
    order: OrderRecord,
    result: CheckoutResult,
    retailer: string,
    changed: boolean,
    actor: AuditActor
  ): Promise<FinishReport | null> {
    if (changed) {
      await tryResults.won(order, (await releaseResults.task(order.id))!, result, retailer)
      return null
    }
    // Two retailers' successes at once: the one recorded first won; this one is extra.
    const recordedTask = await releaseResults.task(order.id)
    if (recordedTask?.outcome !== 'success' || recordedTask.retailer === retailer) return null
    const target = { orderId: order.id, round: Number(recordedTask.round_number), retailer }
    await tryResults.extraSuccess(order, result, target, labelOf(actor))
    return { order, outcome: 'success', done: true, feeCharged: false, feeDue: false }
  }

  /** Notes a refused result on the order's timeline, then throws it (nothing else changes). */
  private async refuse(
    order: OrderRecord | null,
    result: CheckoutResult,
    context: OutcomeContext,
    actor: AuditActor,
    rejection: Rejection
  ): Promise<never> {
    if (order) {
      await orderTimeline.append({
        orderId: order.id,
        kind: 'result_rejected',
        from: order.status,
        to: order.status,
        source: context.source,
        actor: labelOf(actor),
        note: rejection.reason,
        meta: {
          code: rejection.code,
          outcome: result.status,
          ...(result.round ? { round: result.round } : {}),
          ...(result.retailer ? { retailer: result.retailer } : {}),
        },
      })
    }
    throw new AppError(rejection.reason, { status: rejection.status, code: rejection.code })
  }

  /**
   * Applies a recorded result (status, money, e-mail: `ReleaseResults.finish`), then writes the
   * timeline and the audit entry. Runs inline, or as the gateway queue's job with workers.
   */
  async complete(completion: Completion): Promise<FinishReport> {
    // The order's status, money, e-mail and record under its money lock: no other money action
    // (a console refund, a fee retry) lands in between.
    return withOrderMoney(completion.orderId, () => completeResult(completion))
  }

  /**
   * A bot's success while SUCCESS_EVIDENCE=mail: recorded on the task (`awaiting_mail`, with the
   * bot's confirmation) and the timeline; the order stays processing and nothing is charged
   * until the retailer's e-mail confirms it. A repeat of the bot's success changes nothing.
   */
  private async awaitMail(
    order: OrderRecord,
    result: CheckoutResult,
    context: OutcomeContext,
    actor: AuditActor
  ): Promise<FinishReport> {
    await releaseResults.ensureTask(order, context.source, null)
    const recorded = await db
      .from('release_tasks')
      .where('order_id', order.id)
      .whereIn('status', ['submitting', 'submitted'])
      .update({
        status: 'awaiting_mail',
        outcome: 'success',
        confirmation_number: result.confirmationNumber?.slice(0, 120) ?? null,
        result_at: sqlTime(),
      })
    if (affectedRows(recorded) === 1) {
      await orderTimeline.append({
        orderId: order.id,
        kind: 'mail_evidence',
        from: order.status,
        to: order.status,
        source: context.source,
        actor: labelOf(actor),
        note: "The bot reported success; the fee waits for the retailer's e-mail (SUCCESS_EVIDENCE=mail).",
        meta: { awaiting: 'mail', confirmationNumber: result.confirmationNumber ?? null },
      })
    }
    return {
      order: await orderQueries.findById(order.id),
      outcome: 'success',
      done: false,
      feeCharged: false,
      feeDue: false,
    }
  }

  /**
   * Hands a result recorded earlier (a crash, an outage or a lost job left it unapplied) to the
   * gateway queue. Its timeline and audit entries were not written then, so they are now.
   */
  async resume(orderId: number) {
    const task = await releaseResults.task(orderId)
    if (task?.status !== 'resulted') return
    const order = await orderQueries.findById(orderId)
    const engine = task.engine as OutcomeSource
    const source = ENGINES.has(engine) ? engine : 'manual'
    const actor = task.run_id ? { label: `release:run #${task.run_id}` } : { label: source }
    await jobs.dispatch('release.complete-result', {
      orderId,
      before: order.status,
      changed: true,
      context: { source, actor },
    })
  }

  private async find(publicId: unknown): Promise<OrderRecord | null> {
    try {
      return await orderQueries.findByPublicId(publicId)
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null
      throw error
    }
  }
}

/**
 * A result of an engine is for one round of its order (`taskIds`): the current one, or it is
 * refused. One naming no round is taken for round 1, as every result was before orders had
 * rounds: it applies to an order never tried again, and is stale for one that was (a late answer
 * to the failed first round must never decide the second).
 */
function roundRefusal(named: number | null, current: number): Rejection | null {
  const round = named ?? 1
  if (round === current) return null
  if (round > current) {
    return {
      status: 409,
      code: 'not_submitted',
      reason: `Round ${round} of this order was never submitted; it is on round ${current}.`,
    }
  }
  return {
    status: 409,
    code: 'stale_round',
    reason:
      named === null
        ? `This result names no round, so it is taken for round 1, but the order was tried again and is on round ${current}: the result was not applied. Send the task id of round ${current}.`
        : `This result is for round ${round} of the order, which was tried again and is on round ${current}: the result was not applied.`,
  }
}

function refusal(order: Pick<OrderRecord, 'status'>, wanted: string): Rejection {
  return {
    status: 409,
    code: 'invalid_transition',
    reason: transitionRefusal(order.status, wanted),
  }
}

export const orderOutcome = new OrderOutcome()
