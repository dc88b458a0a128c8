import { mkdir, writeFile } from 'node:fs/promises'
import db from '@adonisjs/lucid/services/db'
import { join } from 'node:path'
import type { OrderRecord } from '#orders/services/order_queries'
import { checkoutService } from '#checkout/services/checkout_service'
import { orderQueries, releaseOrderQueries } from '#orders/services/order_queries'
import {
  EXPORT_FORMATS,
  exportAco,
  isExportFormat,
  type AcoEntry,
  type ExportFile,
  type ExportFormat,
} from '#profiles/services/bot_export_formats'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import { AppError } from '#core/exceptions/app_error'
import { FINAL_STATUSES } from '#orders/services/order_card_data'
import { orderMailAddress } from '#orders/services/order_mail_address'
import {
  isNoTask,
  taskOf,
  TaskPlanner,
  type TaskPlan,
  type TaskRetailer,
} from '#release/services/task_plan'

export type ExportRequest = {
  format: unknown
  reason: unknown
  actor: AuditActor
  ip?: string | null
  agent?: string | null
}

/**
 * ACO exports: the sealed profile copy of orders, decrypted into a bot's format. Each export
 * contains full card data, so it is refused without a reason and every reveal is audited (who,
 * why, which orders) before the data is handed out.
 */
export class AcoExportService {
  /**
   * The decrypted ACO entry of one order in its `round` (null when the order has no sealed
   * profile), with the task id a bot reports its result under. With MAIL_INTAKE_DOMAIN set, the
   * profile's e-mail is the order's own intake address (`mailAddress`, from
   * `orderMailAddress.ensure`), so the retailer's e-mails about it reach the intake; the
   * customer's own address stays on their profile.
   */
  entryFor(
    order: OrderRecord,
    round: number,
    plan: TaskPlan,
    retailer: TaskRetailer | null,
    mailAddress: string | null = null
  ): AcoEntry | null {
    const snapshot = checkoutService.openSnapshot(order)
    if (!snapshot) return null
    const profile = mailAddress ? { ...snapshot.profile, email: mailAddress } : snapshot.profile
    return { ...taskOf(order, round, plan, retailer), profile: { ...profile, card: snapshot.card } }
  }

  async forOrder(publicId: unknown, request: ExportRequest) {
    const { format, reason } = this.validate(request)
    const order = await orderQueries.findByPublicId(publicId)
    if ((FINAL_STATUSES as readonly string[]).includes(order.status)) {
      throw AppError.conflict(
        `This order is final (${order.status === 'fail' ? 'failed' : order.status}); its card data was deleted, so there is nothing to export.`,
        'order_final'
      )
    }
    return this.export([order], format, reason, request, {
      subjectType: 'order',
      subjectId: order.publicId,
    })
  }

  /** The active orders (pending, processing) of a product: what a bot would check out. */
  async forProduct(productId: number, request: ExportRequest) {
    const { format, reason } = this.validate(request)
    const orders = await releaseOrderQueries.withStatuses(['pending', 'processing'], productId)
    return this.export(orders, format, reason, request, {
      subjectType: 'product',
      subjectId: productId,
    })
  }

  async writeTo(directory: string, name: string, file: ExportFile) {
    await mkdir(directory, { recursive: true, mode: 0o700 })
    const path = join(directory, `${name}.${file.extension}`)
    await writeFile(path, file.body, { mode: 0o600 })
    return path
  }

  /** The current round of each order (its release task's; 1 for an order never submitted). */
  private async rounds(orderIds: number[]) {
    const rows: { order_id: number; round_number: number }[] = orderIds.length
      ? await db
          .from('release_tasks')
          .whereIn('order_id', orderIds)
          .select('order_id', 'round_number')
      : []
    return new Map(rows.map((row) => [Number(row.order_id), Number(row.round_number)]))
  }

  private validate(request: ExportRequest): { format: ExportFormat; reason: string } {
    const format = request.format ?? 'dropslot'
    if (!isExportFormat(format)) {
      throw AppError.badRequest(
        `Unknown format. Use one of: ${EXPORT_FORMATS.join(', ')}.`,
        'invalid_format',
        { format: `Use one of: ${EXPORT_FORMATS.join(', ')}.` }
      )
    }
    const reason = typeof request.reason === 'string' ? request.reason.trim() : ''
    if (reason.length < 3 || reason.length > 255) {
      throw AppError.badRequest(
        'A reason (3-255 characters) is required: every export of card data is audited.',
        'reason_required',
        { reason: 'Say why you need the card data.' }
      )
    }
    return { format, reason }
  }

  private async export(
    orders: OrderRecord[],
    format: ExportFormat,
    reason: string,
    request: ExportRequest,
    subject: { subjectType: string; subjectId: string | number }
  ) {
    const rounds = await this.rounds(orders.map((order) => order.id))
    const planner = new TaskPlanner()
    const entries: AcoEntry[] = []
    let aboveCap = 0
    for (const order of orders) {
      // An order whose every accepted retailer is above its cap is never sent to a bot.
      const plan = await planner.plan(order)
      if (isNoTask(plan)) {
        aboveCap++
        continue
      }
      const address = await orderMailAddress.ensure(order)
      // A format without a list of sites gets one profile per retailer: an entry each.
      for (const retailer of plan.retailers.length ? plan.retailers : [null]) {
        const entry = this.entryFor(order, rounds.get(order.id) ?? 1, plan, retailer, address)
        if (entry) entries.push(entry)
      }
    }
    if (entries.length === 0 && aboveCap > 0) {
      throw AppError.conflict(
        'Not exported: every retailer the buyer accepts is above their price cap, so no bot is sent this order.',
        'above_price_cap'
      )
    }
    if (entries.length === 0) {
      throw AppError.notFound('No order with a sealed profile to export.', 'nothing_to_export')
    }
    await auditLog.record({
      actor: request.actor,
      action: 'order.aco_export',
      ...subject,
      reason,
      ip: request.ip ?? null,
      agent: request.agent ?? null,
      meta: { format, orders: entries.map((entry) => entry.orderId) },
    })
    return { file: exportAco(format, entries), count: entries.length }
  }
}

export const acoExportService = new AcoExportService()
