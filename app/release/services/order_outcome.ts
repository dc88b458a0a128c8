import db from '@adonisjs/lucid/services/db'
import { productQueries } from '#catalog/services/product_queries'
import type { OrderRecord } from '#orders/services/order_queries'
import type { OrderStatus } from '#shared/vocabulary'
import { orderQueries } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { failureCode } from '#orders/services/failure_reasons'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import { AppError } from '#core/exceptions/app_error'
import { transitionRefusal } from '#orders/services/transition_refusal'
import { affectedRows } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { crashPoint } from '#core/services/crash_points'
import { opsLog } from '#core/services/ops_log'
import { jobs } from '#core/jobs/jobs'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderEmails } from '#notifications/services/order_emails'
import { clock } from '#core/services/clock'
import { mailIntakeConfig } from '#config/mail_intake'
import { tryResults } from '#release/services/try_results'
import {
  releaseResults,
  type CheckoutResult,
  type FinishReport,
  type TaskRow,
} from '#release/services/release_results'

/**
 * Where a result comes from: a checkout engine of a release run (`simulator`, `webhook`,
 * `files`), or a person marking it by hand (`manual`: the console or `orders:mark`).
 */
export type OutcomeSource = 'simulator' | 'webhook' | 'files' | 'manual' | 'mail'

/** The retailer's signed e-mail as the evidence of an outcome (the mail intake). */
export type MailEvidence = {
  /** The message's Message-ID: the actor is `mail:<message-id>`. */
  messageId: string
  /** The retailer's own order number, the order's confirmation. */
  retailerOrderNumber: string | null
  /** The retailer whose signature vouches for the message, and what it says was bought. */
  retailer?: string | null
  size?: string | null
  totalCents?: number | null
}

/** What the retailer's e-mail did to an order (the intake's `action`). */
export type MailOutcome =
  | { action: 'success'; corrected: boolean }
  | { action: 'refund'; refunded: boolean }
  | { action: 'recorded'; note: string }
  | { action: 'review'; reason: string }

export type OutcomeContext = {
  source: OutcomeSource
  /** Who, for the audit log and the timeline. Engines default to `release:run #<run>`. */
  actor?: AuditActor | null
  ip?: string | null
  /** The channel, for the audit record: console, cli, webhook, files, release:run. */
  via?: string
}

/** Why a result was not applied: a code and a sentence a bot (or an operator) can read. */
export type Rejection = { status: number; code: string; reason: string }

/** A recorded result to apply: inline, or carried by the gateway queue's job. */
export type Completion = {
  orderId: number
  /** The order's status when the result was recorded. */
  before: OrderStatus
  /** This delivery recorded the result (false: it was recorded before, a repeat or a resume). */
  changed: boolean
  context: OutcomeContext & { actor: AuditActor }
}

export type OutcomePlan = {
  orderId: string
  customer: string
  outcome: 'success' | 'fail'
  from: OrderStatus
  /** Nothing would change (the order already has this result). */
  repeat: boolean
  /** The service fee that would be charged now, in cents (0 for a failure or a repeat). */
  feeCents: number
}

const ENGINES = new Set<OutcomeSource>(['simulator', 'webhook', 'files'])

function labelOf(actor: AuditActor | null | undefined) {
  return actor?.email ?? actor?.label ?? 'system'
}

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
    if (source === 'mail' && order.status !== 'processing' && order.status !== 'success') {
      return {
        status: 409,
        code: 'not_submitted',
        reason: `This order is ${order.status}: it was not handed to the retailer, so its confirmation cannot be applied.`,
      }
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

    const code = result.status === 'fail' ? failureCode(result.reasonCode, result.reason) : null
    // SUCCESS_EVIDENCE=mail: a bot's success leaves the order processing, its fee waiting for
    // the retailer's signed confirmation (which comes back here as `mail`).
    const evidence = mailIntakeConfig().successEvidence
    if (evidence === 'mail' && ENGINES.has(context.source) && result.status === 'success') {
      return this.awaitMail(order!, result, context, actor)
    }
    await releaseResults.ensureTask(order!, context.source, null)
    const recorded = await db
      .from('release_tasks')
      .where('order_id', order!.id)
      .whereIn(
        'status',
        context.source === 'mail'
          ? ['submitting', 'submitted', 'awaiting_mail']
          : ['submitting', 'submitted']
      )
      .update({
        status: 'resulted',
        outcome: result.status,
        confirmation_number: result.confirmationNumber?.slice(0, 120) ?? null,
        reason: result.reason?.slice(0, 255) ?? null,
        reason_code: code,
        retailer: decision.retailer,
        won_size: result.status === 'success' ? (result.size?.slice(0, 16) ?? null) : null,
        result_at: sqlTime(),
      })
    const changed = affectedRows(recorded) === 1
    crashPoint('result-recorded')
    if (decision.retailer && result.status === 'success') {
      if (changed) {
        await tryResults.won(
          order!,
          (await releaseResults.task(order!.id))!,
          result,
          decision.retailer
        )
      } else {
        // Two retailers' successes at once: the one recorded first won; this one is extra.
        const recordedTask = await releaseResults.task(order!.id)
        if (recordedTask?.outcome === 'success' && recordedTask.retailer !== decision.retailer) {
          const target = {
            orderId: order!.id,
            round: Number(recordedTask.round_number),
            retailer: decision.retailer,
          }
          await tryResults.extraSuccess(order!, result, target, labelOf(actor))
          return { order: order!, outcome: 'success', done: true, feeCharged: false, feeDue: false }
        }
      }
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
    return withOrderMoney(completion.orderId, () => this.completeLocked(completion))
  }

  private async completeLocked({
    orderId,
    before,
    changed,
    context,
  }: Completion): Promise<FinishReport> {
    const finished = await releaseResults.finish(orderId)
    const after = finished.order
    const task = await releaseResults.task(orderId)
    const actor = context.actor
    const outcome = finished.outcome
    const code = task?.reason_code ?? null

    if (changed) {
      opsLog('order.result', {
        order: after.publicId,
        run: task?.run_id ?? null,
        source: context.source,
        outcome,
        status: after.status,
        fee: after.feeStatus,
        hold: after.holdStatus,
        failCode: code,
      })
      await orderTimeline.append({
        orderId: after.id,
        kind: 'outcome',
        from: before,
        to: after.status,
        source: context.source,
        actor: labelOf(actor),
        note: outcome === 'success' ? (task?.confirmation_number ?? null) : (task?.reason ?? null),
        meta: {
          feeStatus: after.feeStatus,
          holdStatus: after.holdStatus,
          ...(code ? { failCode: code } : {}),
          ...(task?.run_id ? { runId: task.run_id } : {}),
        },
      })
    }
    if (changed || context.source === 'manual') {
      await auditLog.record({
        actor,
        ip: context.ip ?? null,
        action:
          context.source === 'manual'
            ? outcome === 'success'
              ? 'order.mark_success'
              : 'order.mark_fail'
            : 'order.result',
        subjectType: 'order',
        subjectId: after.publicId,
        reason: task?.reason ?? null,
        meta: {
          source: context.source,
          via: context.via ?? context.source,
          from: before,
          to: after.status,
          changed,
          confirmationNumber: task?.confirmation_number ?? null,
          settlement: { fee: after.feeStatus, hold: after.holdStatus },
        },
      })
    }
    return finished
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

  /** Orders whose bot success has waited for the retailer's e-mail longer than `hours`. */
  async awaitingMailLongerThan(hours: number) {
    const rows = await db
      .from('release_tasks')
      .join('orders', 'orders.id', 'release_tasks.order_id')
      .where('release_tasks.status', 'awaiting_mail')
      .where('release_tasks.result_at', '<', sqlTime(new Date(clock.nowMs() - hours * 3_600_000)))
      .select('orders.public_id')
    return rows.map((row) => String(row.public_id))
  }

  /**
   * The retailer's signed confirmation (the mail intake verified the signature, the retailer and
   * the order's address). A submitted order succeeds through `apply` like any result (fee once,
   * hold released, e-mail, timeline, audit as `mail:<message-id>`); an order the bot already
   * reported successful is left as it is (the same outcome, whichever came first); an order the
   * bot reported failed is corrected to success, the retailer's word winning: the fee is charged
   * once and the timeline flags the disagreement for the console.
   */
  async confirmByRetailer(publicId: string, evidence: MailEvidence): Promise<MailOutcome> {
    const order = await this.find(publicId)
    if (!order) return { action: 'review', reason: 'No such order.' }
    return withOrderMoney(order.id, async () => {
      const current = await orderQueries.findById(order.id)
      const actor = { label: `mail:${evidence.messageId}`.slice(0, 250) }
      const mailResult: CheckoutResult = {
        orderId: current.publicId,
        status: 'success',
        confirmationNumber: evidence.retailerOrderNumber,
        retailer: evidence.retailer ?? null,
        size: evidence.size ?? null,
        totalCents: evidence.totalCents ?? null,
      }
      if (current.status === 'success') {
        const task = await releaseResults.task(current.id)
        if (evidence.retailer && task?.retailer && task.retailer !== evidence.retailer) {
          // Another retailer the order was sent to confirms it too: an extra success, no fee.
          try {
            await this.apply(mailResult, { source: 'mail', actor, via: 'mail' })
          } catch (error) {
            if (error instanceof AppError) return { action: 'review', reason: error.message }
            throw error
          }
          return {
            action: 'recorded',
            note: 'Extra success: the order was already won at another retailer; no second fee.',
          }
        }
        return { action: 'recorded', note: 'The order was already successful.' }
      }
      if (current.status === 'fail' && current.feeStatus === 'none') {
        return this.correctByRetailer(current, evidence, actor)
      }
      if (current.status !== 'processing') {
        return {
          action: 'review',
          reason: `The order is ${current.status}; a confirmation cannot apply to it.`,
        }
      }
      try {
        await this.apply(mailResult, { source: 'mail', actor, via: 'mail' })
      } catch (error) {
        if (error instanceof AppError) return { action: 'review', reason: error.message }
        throw error
      }
      return { action: 'success', corrected: false }
    })
  }

  private async correctByRetailer(
    before: OrderRecord,
    evidence: MailEvidence,
    actor: AuditActor
  ): Promise<MailOutcome> {
    const { order, changed } = await orderSettlement.correctToSuccess(before.id, {
      confirmationNumber: evidence.retailerOrderNumber,
    })
    if (!changed) return { action: 'review', reason: 'The order changed meanwhile.' }
    await db
      .from('release_tasks')
      .where('order_id', order.id)
      .update({
        status: 'done',
        outcome: 'success',
        confirmation_number: evidence.retailerOrderNumber?.slice(0, 120) ?? null,
        reason: null,
        reason_code: null,
        result_at: sqlTime(),
        finished_at: sqlTime(),
      })
    await orderEmails.sendOutcome(order)
    opsLog('order.result', {
      order: order.publicId,
      source: 'mail',
      outcome: 'success',
      status: order.status,
      fee: order.feeStatus,
      corrected: true,
    })
    await orderTimeline.append({
      orderId: order.id,
      kind: 'corrected',
      from: before.status,
      to: order.status,
      source: 'mail',
      actor: labelOf(actor),
      note: evidence.retailerOrderNumber,
      meta: {
        flag: 'bot_disagreed',
        botSaid: 'fail',
        retailerSaid: 'success',
        feeStatus: order.feeStatus,
      },
    })
    await auditLog.record({
      actor,
      action: 'order.result',
      subjectType: 'order',
      subjectId: order.publicId,
      meta: {
        source: 'mail',
        via: 'mail',
        from: before.status,
        to: order.status,
        changed: true,
        corrected: true,
        confirmationNumber: evidence.retailerOrderNumber,
        settlement: { fee: order.feeStatus, hold: order.holdStatus },
      },
    })
    return { action: 'success', corrected: true }
  }

  /**
   * The retailer's signed cancellation of an order it had confirmed: within `withinDays` of the
   * success the order becomes `retailer_cancelled`, the whole fee is refunded through the ledger
   * under its own key (`paymentKeys.retailerCancelRefund`), the customer is e-mailed, the
   * timeline and the audit log (`mail:<message-id>`) say so. Once per order, whatever reads it.
   */
  async cancelByRetailer(
    publicId: string,
    evidence: MailEvidence,
    withinDays: number
  ): Promise<MailOutcome> {
    const order = await this.find(publicId)
    if (!order) return { action: 'review', reason: 'No such order.' }
    return withOrderMoney(order.id, async () => {
      const before = await orderQueries.findById(order.id)
      const actor = { label: `mail:${evidence.messageId}`.slice(0, 250) }
      if (before.status === 'retailer_cancelled') {
        return { action: 'recorded', note: 'The order was already cancelled by the retailer.' }
      }
      if (before.status !== 'success') {
        return {
          action: 'review',
          reason: `The order is ${before.status}; only a successful order can be cancelled by the retailer.`,
        }
      }
      const since = before.succeededAt?.toMillis() ?? before.createdAt.toMillis()
      if (clock.nowMs() - since > withinDays * 86_400_000) {
        return {
          action: 'review',
          reason: `The order succeeded more than ${withinDays} days ago (REFUND_ON_CANCEL_DAYS).`,
        }
      }
      const reason = 'Cancelled by the retailer after confirming it.'
      const {
        order: after,
        changed,
        settlement,
      } = await orderSettlement.retailerCancel(before.id, { reason })
      if (!changed) return { action: 'review', reason: 'The order changed meanwhile.' }
      const refund = settlement.refund?.status ?? null
      await orderEmails.sendRetailerCancelled(after)
      await orderTimeline.append({
        orderId: after.id,
        kind: 'retailer_cancelled',
        from: before.status,
        to: after.status,
        source: 'mail',
        actor: labelOf(actor),
        note: reason,
        meta: { refund, refundedCents: after.refundedCents, feeStatus: after.feeStatus },
      })
      await auditLog.record({
        actor,
        action: 'order.retailer_cancel',
        subjectType: 'order',
        subjectId: after.publicId,
        reason,
        meta: {
          source: 'mail',
          from: before.status,
          to: after.status,
          refund,
          refundedCents: after.refundedCents,
        },
      })
      return { action: 'refund', refunded: refund === 'refunded' }
    })
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
