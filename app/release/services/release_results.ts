import db from '@adonisjs/lucid/services/db'
import type Order from '#orders/models/order'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderQueries } from '#orders/services/order_queries'
import { orderEmails } from '#notifications/services/order_emails'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { crashPoint } from '#release/services/crash_points'
import { sqlTime } from '#core/helpers/sql_time'

export type CheckoutResult = {
  /** The order's public id. */
  orderId: string
  status: 'success' | 'fail'
  confirmationNumber?: string | null
  reason?: string | null
}

export type FinishReport = {
  order: Order
  outcome: 'success' | 'fail'
  /** All money steps and the e-mail are done (false: a provider outage left work for later). */
  done: boolean
  feeCharged: boolean
  feeDue: boolean
}

export type TaskRow = {
  id: number
  order_id: number
  status: 'submitting' | 'submitted' | 'resulted' | 'done'
  outcome: 'success' | 'fail' | null
  confirmation_number: string | null
  reason: string | null
}

/**
 * Results of checkout engines (simulator, bot callbacks, imported files, `orders:mark`). A result
 * is first recorded on the order's release task, then applied: the lifecycle moves the order,
 * settles the money (fee on success, hold released) and the outcome e-mail goes out once. Each
 * step is idempotent, so a crash anywhere is repaired by `finish` on the next run.
 */
export class ReleaseResults {
  async task(orderId: number): Promise<TaskRow | null> {
    return (await db.from('release_tasks').where('order_id', orderId).first()) ?? null
  }

  /** Creates the release task of an order (or returns the existing one). */
  async ensureTask(order: Order, engine: string, runId: number | null): Promise<TaskRow> {
    try {
      await db.table('release_tasks').insert({
        order_id: order.id,
        product_id: order.productId,
        run_id: runId,
        engine,
        status: 'submitting',
        submit_attempts: 0,
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    return (await this.task(order.id))!
  }

  async noteSubmitAttempt(orderId: number, runId: number | null, engine: string) {
    await db
      .from('release_tasks')
      .where('order_id', orderId)
      .where('status', 'submitting')
      .update({
        run_id: runId,
        engine,
        submit_attempts: db.knexRawQuery('submit_attempts + 1'),
      })
  }

  async noteSubmitted(orderId: number) {
    await db
      .from('release_tasks')
      .where('order_id', orderId)
      .where('status', 'submitting')
      .update({ status: 'submitted', submitted_at: sqlTime(), last_error: null })
  }

  async noteSubmitError(orderId: number, message: string) {
    await db
      .from('release_tasks')
      .where('order_id', orderId)
      .update({ last_error: message.slice(0, 255) })
  }

  /** Tasks whose result is known but not fully applied yet (a crash or an outage interrupted). */
  async unfinished(productIds: number[] | null): Promise<TaskRow[]> {
    const query = db.from('release_tasks').where('status', 'resulted').orderBy('order_id', 'asc')
    if (productIds) query.whereIn('product_id', productIds)
    return query
  }

  /**
   * Records a result for an order and applies it. Repeating a result is harmless; a result that
   * contradicts the order's final state is refused (409).
   */
  async record(result: CheckoutResult, source: string): Promise<FinishReport> {
    const order = await orderQueries.findByPublicId(result.orderId)
    if (order.status === 'cancelled') {
      throw AppError.conflict(
        'This order was cancelled; it cannot have a result.',
        'order_cancelled'
      )
    }
    if (
      (order.status === 'success' && result.status === 'fail') ||
      (order.status === 'fail' && result.status === 'success')
    ) {
      throw AppError.conflict(
        `This order already ended as ${order.status}; the result was not applied.`,
        'order_already_final'
      )
    }
    await this.ensureTask(order, source, null)
    await db
      .from('release_tasks')
      .where('order_id', order.id)
      .whereIn('status', ['submitting', 'submitted'])
      .update({
        status: 'resulted',
        outcome: result.status,
        confirmation_number: result.confirmationNumber?.slice(0, 120) ?? null,
        reason: result.reason?.slice(0, 255) ?? null,
        result_at: sqlTime(),
      })
    crashPoint('result-recorded')
    return this.finish(order.id)
  }

  /** Applies a recorded result: status, money, e-mail; marks the task done when all happened. */
  async finish(orderId: number): Promise<FinishReport> {
    const task = await this.task(orderId)
    if (!task?.outcome) throw new Error(`Order ${orderId} has no recorded result.`)
    const { order, settlement } =
      task.outcome === 'success'
        ? await orderLifecycle.succeed(orderId, { confirmationNumber: task.confirmation_number })
        : await orderLifecycle.fail(orderId, { reason: task.reason })
    crashPoint('settled')
    await orderEmails.sendOutcome(order)
    crashPoint('emailed')
    const moneyPending = settlement.fee?.status === 'retry' || settlement.hold?.status === 'retry'
    if (!moneyPending) {
      await db
        .from('release_tasks')
        .where('order_id', orderId)
        .where('status', 'resulted')
        .update({ status: 'done', finished_at: sqlTime() })
    }
    return {
      order,
      outcome: task.outcome,
      done: !moneyPending,
      feeCharged: order.feeStatus === 'paid',
      feeDue: order.status === 'success' && ['failed', 'requires_action'].includes(order.feeStatus),
    }
  }
}

export const releaseResults = new ReleaseResults()
