import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { runList, sendList, filters, integer, oneOf, boolean } from '#core/services/rest_query'
import type { ListDefinition } from '#core/services/rest_query'
import { auditLog } from '#core/services/audit_log_service'
import ReleaseRun from '#release/models/release_run'
import { presentOneRun, presentRuns } from '#release/services/release_runner'
import { acoExportService } from '#release/services/aco_export_service'
import { orderEmails } from '#notifications/services/order_emails'
import { orderQueries } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { emailResends } from '#release/services/email_resends'
import { resendScopeValidator } from '#release/validators/release_validators'

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
    status: filters.equals(
      'status',
      oneOf(['running', 'finished', 'failed', 'interrupted'] as const)
    ),
    productId: filters.equals('product_id', integer()),
    dryRun: filters.equals('dry_run', boolean()),
    startedAt_gte: filters.from('started_at'),
    startedAt_lte: filters.until('started_at'),
  },
}

/** Release-day admin calls: run history, the spec's e-mail resends and ACO download. */
export default class ReleaseAdminController {
  async runs({ request, response }: HttpContext) {
    const list = await runList(ReleaseRun.query(), releaseRunList, request.qs(), (run) => run)
    return sendList(response, { ...list, rows: await presentRuns(list.rows) })
  }

  async run({ params }: HttpContext) {
    const run = await ReleaseRun.find(params.id)
    if (!run) throw AppError.notFound('Release run not found.', 'release_run_not_found')
    return presentOneRun(run)
  }

  /** GET /api/admin/orders/resendEmail/:id (the order's public id). */
  async resendEmail(ctx: HttpContext) {
    const order = await orderQueries.findByPublicId(ctx.params.id)
    const sent = await orderEmails.resend(order)
    const who = auditLog.fromRequest(ctx)
    await orderTimeline.append({
      orderId: order.id,
      kind: 'email_resend',
      from: order.status,
      to: order.status,
      source: 'console',
      actor: who.actor?.email ?? 'admin',
      meta: { template: sent.template },
    })
    await auditLog.record({
      ...auditLog.fromRequest(ctx),
      action: 'order.email_resend',
      subjectType: 'order',
      subjectId: order.publicId,
      meta: { template: sent.template },
    })
    return { success: true, ...sent }
  }

  /**
   * GET /api/admin/orders/resendAll?productId=&runId=&status=[&dryRun=true]: the current e-mail
   * of the orders in the scope (at least one of the three), marked as a resend. With `dryRun`
   * nothing is sent: the answer says how many e-mails a send would write (the console's confirm).
   */
  async resendAll(ctx: HttpContext) {
    const { dryRun, ...scope } = await resendScopeValidator.validate(ctx.request.qs())
    if (dryRun) return { success: true, dryRun: true, ...(await emailResends.count(scope)) }
    const who = auditLog.fromRequest(ctx)
    return { success: true, ...(await emailResends.send(scope, { ...who, via: 'console' })) }
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
