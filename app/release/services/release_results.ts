import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderSettlement } from '#payments/services/order_settlement'
import { failureCode } from '#orders/services/failure_reasons'
import { orderEmails } from '#notifications/services/order_emails'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { crashPoint } from '#core/services/crash_points'
import { removeTaskFile } from '#release/services/checkout_engines'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { isFeeDue } from '#shared/vocabulary'

export type CheckoutResult = {
  /** The order's public id. */
  orderId: string
  status: 'success' | 'fail'
  confirmationNumber?: string | null
  reason?: string | null
  /** The failure's category, when the engine gives one (sold_out, declined, address, other). */
  reasonCode?: string | null
  /**
   * The round of the order the result is for (from its task id, `task-{orderId}-{round}`). A
   * result naming no round is taken for round 1, as every result was before orders had rounds:
   * it applies to an order that was never tried again, and is stale for one that was.
   */
  round?: number | null
  /** The retailer tried (from its task id `task-{order}-{round}-{retailer}`); null: none named. */
  retailer?: string | null
  /** The size bought, one of the order's ladder (a success). */
  size?: string | null
  /** What the retailer charged for the item with shipping, in cents, when the bot says (a success). */
  totalCents?: number | null
}

export type FinishReport = {
  order: OrderRecord
  outcome: 'success' | 'fail'
  /** All money steps and the e-mail are done (false: a provider outage left work for later). */
  done: boolean
  feeCharged: boolean
  feeDue: boolean
  /** Left to the gateway queue's job (workers): money and e-mail follow within its rate. */
  queued?: boolean
  /** One retailer's try failed while another is still open: the order is not decided yet. */
  stillTrying?: boolean
}

export type TaskRow = {
  id: number
  order_id: number
  /** `awaiting_mail`: the bot said success, the fee waits for the retailer's e-mail. */
  status: 'submitting' | 'submitted' | 'awaiting_mail' | 'resulted' | 'done'
  outcome: 'success' | 'fail' | null
  confirmation_number: string | null
  reason: string | null
  reason_code: string | null
  engine: string
  run_id: number | null
  submit_attempts: number
  /** 1 for the order's first submission, then one more for each retry of the failed order. */
  round_number: number
  /** Where and in which size the recorded success was won (a product with retailers). */
  retailer: string | null
  won_size: string | null
}

/**
 * The release tasks of orders and the applying of a recorded result. Results arrive through the
 * one outcome path (`order_outcome.ts`), which records them on the order's release task; `finish`
 * then applies them: the lifecycle moves the order, settles the money (fee on success, hold
 * released) and the outcome e-mail goes out once. Each step is idempotent, so a crash anywhere is
 * repaired by `finish` on the next run.
 */
export class ReleaseResults {
  async task(orderId: number): Promise<TaskRow | null> {
    return (await db.from('release_tasks').where('order_id', orderId).first()) ?? null
  }

  /** Creates the release task of an order (or returns the existing one). */
  async ensureTask(order: OrderRecord, engine: string, runId: number | null): Promise<TaskRow> {
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

  /**
   * A failed order is tried again: its task goes back to be submitted by the next run, as the
   * order's next round (inside the lifecycle's retry transaction). A result of the round before
   * is stale from now on.
   */
  async resetForRetry(orderId: number, trx: TransactionClientContract) {
    const reset = await trx
      .from('release_tasks')
      .where('order_id', orderId)
      .update({
        round_number: db.knexRawQuery('round_number + 1'),
        status: 'submitting',
        outcome: null,
        confirmation_number: null,
        reason: null,
        reason_code: null,
        run_id: null,
        submit_attempts: 0,
        last_error: null,
        submitted_at: null,
        result_at: null,
        finished_at: null,
      })
    if (affectedRows(reset) === 0) {
      // An order that failed without a task of its own: its next submission is its round 2.
      const order = await trx.from('orders').where('id', orderId).select('product_id').first()
      await trx.table('release_tasks').insert({
        order_id: orderId,
        product_id: order.product_id,
        run_id: null,
        engine: 'manual',
        status: 'submitting',
        submit_attempts: 0,
        round_number: 2,
      })
    }
  }

  /** Tasks whose result is known but not fully applied yet (a crash or an outage interrupted). */
  async unfinished(
    productIds: number[] | null,
    options: { resultBeforeSeconds?: number } = {}
  ): Promise<TaskRow[]> {
    const query = db.from('release_tasks').where('status', 'resulted').orderBy('order_id', 'asc')
    if (productIds) query.whereIn('product_id', productIds)
    if (options.resultBeforeSeconds) {
      query.where(
        'result_at',
        '<',
        sqlTime(new Date(Date.now() - options.resultBeforeSeconds * 1000))
      )
    }
    return query
  }

  /**
   * The retailer's confirmation corrected a failed order to success (`correctToSuccess` moved it
   * and its money): its task is done with the retailer's order number.
   */
  async doneByRetailer(orderId: number, confirmationNumber: string | null) {
    await db
      .from('release_tasks')
      .where('order_id', orderId)
      .update({
        status: 'done',
        outcome: 'success',
        confirmation_number: confirmationNumber?.slice(0, 120) ?? null,
        reason: null,
        reason_code: null,
        result_at: sqlTime(),
        finished_at: sqlTime(),
      })
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

  /** Applies a recorded result: status, money, e-mail; marks the task done when all happened. */
  async finish(orderId: number): Promise<FinishReport> {
    const task = await this.task(orderId)
    if (!task?.outcome) throw new Error(`Order ${orderId} has no recorded result.`)
    const { order, settlement } =
      task.outcome === 'success'
        ? await orderSettlement.succeed(orderId, {
            confirmationNumber: task.confirmation_number,
            retailer: task.retailer,
            size: task.won_size,
          })
        : await orderSettlement.fail(orderId, {
            reason: task.reason,
            code: task.reason_code ?? failureCode(null, task.reason),
          })
    crashPoint('settled')
    if (task.engine === 'files') await removeTaskFile(order.publicId)
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
      feeDue: isFeeDue(order),
    }
  }
}

export const releaseResults = new ReleaseResults()
