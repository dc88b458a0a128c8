import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { runList, sendList, filters, integer, oneOf, boolean } from '#admin/services/rest_query'
import type { ListDefinition } from '#admin/services/rest_query'
import { auditLog } from '#admin/services/audit_log_service'
import ReleaseRun from '#release/models/release_run'
import { presentRun } from '#release/services/release_runner'
import { acoExportService } from '#release/services/aco_export_service'
import { orderEmails } from '#notifications/services/order_emails'
import { orderQueries, releaseOrderQueries } from '#orders/services/order_queries'

const releaseRunList: ListDefinition = {
  resource: 'release-runs',
  sortable: {
    id: 'id',
    startedAt: 'started_at',
    finishedAt: 'finished_at',
    status: 'status',
    ordersSubmitted: 'orders_submitted',
  },
  defaultSort: ['startedAt', 'desc'],
  filters: {
    id: filters.anyOf('id', integer()),
    status: filters.equals('status', oneOf(['running', 'finished', 'failed'] as const)),
    productId: filters.equals('product_id', integer()),
    dryRun: filters.equals('dry_run', boolean()),
    startedAt_gte: filters.from('started_at'),
    startedAt_lte: filters.until('started_at'),
  },
}

/** Release-day admin calls: run history, the spec's e-mail resends and ACO download. */
export default class ReleaseAdminController {
  async runs({ request, response }: HttpContext) {
    return sendList(
      response,
      await runList(ReleaseRun.query(), releaseRunList, request.qs(), presentRun)
    )
  }

  async run({ params }: HttpContext) {
    const run = await ReleaseRun.find(params.id)
    if (!run) throw AppError.notFound('Release run not found.', 'release_run_not_found')
    return presentRun(run)
  }

  /** GET /api/admin/orders/resendEmail/:id (the order's public id). */
  async resendEmail(ctx: HttpContext) {
    const order = await orderQueries.findByPublicId(ctx.params.id)
    const sent = await orderEmails.resend(order)
    await auditLog.record({
      ...auditLog.fromRequest(ctx),
      action: 'order.email_resend',
      subjectType: 'order',
      subjectId: order.publicId,
      meta: { template: sent.template },
    })
    return { success: true, ...sent }
  }

  /** GET /api/admin/orders/resendAll: every order's current e-mail, marked as a resend. */
  async resendAll(ctx: HttpContext) {
    const orders = await releaseOrderQueries.withStatuses(
      ['pending', 'processing', 'success', 'fail', 'cancelled'],
      null
    )
    const result = await orderEmails.resendMany(orders)
    await auditLog.record({
      ...auditLog.fromRequest(ctx),
      action: 'order.email_resend_all',
      subjectType: 'order',
      meta: { sent: result.sent, skipped: result.skipped },
    })
    return { success: true, sent: result.sent, skipped: result.skipped }
  }

  /** GET /api/admin/aco/getJSON/:id?format=&reason=: the order's decrypted ACO file (audited). */
  async acoJson(ctx: HttpContext) {
    const { file } = await acoExportService.forOrder(ctx.params.id, {
      format: ctx.request.input('format', 'dropslot'),
      reason: ctx.request.input('reason'),
      ...auditLog.fromRequest(ctx),
      actor: auditLog.fromRequest(ctx).actor ?? { label: 'admin' },
    })
    ctx.response.header('Content-Type', file.contentType)
    ctx.response.header(
      'Content-Disposition',
      `attachment; filename="aco-${ctx.params.id}-${file.format}.${file.extension}"`
    )
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.response.send(file.body)
  }
}
