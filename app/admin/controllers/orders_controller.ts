import type { HttpContext } from '@adonisjs/core/http'
import { adminOrders } from '#admin/services/admin_orders_service'
import { adminOrderActions } from '#admin/services/admin_order_actions_service'
import { auditLog } from '#core/services/audit_log_service'
import { sendList } from '#core/services/rest_query'
import { hasRecentFactor } from '#core/middleware/factor_check'
import {
  cancelOrderValidator,
  correctOrderValidator,
  createOrderValidator,
  markOrderValidator,
  orderToolValidator,
  refundOrderValidator,
} from '#admin/validators/admin_validators'

/**
 * Orders: `GET /api/admin/orders` (also the spec's call) and one order with its ledger; marking a
 * result, placing an order for a customer and cancelling (deleting) an unprocessed order, each
 * audited. The spec's calls answer `{ success, order }`; the REST ones answer the record.
 */
export default class OrdersController {
  async index({ request, response }: HttpContext) {
    return sendList(response, await adminOrders.list(request.qs()))
  }

  async show({ params }: HttpContext) {
    return adminOrders.show(String(params.id).toLowerCase())
  }

  /** POST /api/admin/orders/:id/mark {status: 'success'|'fail', confirmationNumber?, reason?} */
  async mark(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(markOrderValidator)
    return adminOrderActions.mark(
      String(ctx.params.id).toLowerCase(),
      payload,
      auditLog.fromRequest(ctx)
    )
  }

  /** POST /api/admin/orders/:id/refund {amount? (dollars; all that is left if absent), reason} */
  async refund(ctx: HttpContext) {
    const { amount, reason } = await ctx.request.validateUsing(refundOrderValidator)
    return adminOrderActions.refundFee(
      this.id(ctx),
      {
        amountCents: amount === undefined || amount === null ? null : Math.round(amount * 100),
        reason,
      },
      { ...auditLog.fromRequest(ctx), recentFactor: hasRecentFactor(ctx) }
    )
  }

  /** POST /api/admin/orders/:id/waive-fee {reason}: a fee that is due is waived. */
  async waiveFee(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(orderToolValidator)
    return adminOrderActions.waiveFee(this.id(ctx), payload, auditLog.fromRequest(ctx))
  }

  /** POST /api/admin/orders/:id/retry {reason}: a failed order back to pending (new slot, new hold). */
  async retry(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(orderToolValidator)
    return adminOrderActions.retry(this.id(ctx), payload, auditLog.fromRequest(ctx))
  }

  /** POST /api/admin/orders/:id/correct {reason, reasonCode?}: success -> fail, fee refunded. */
  async correct(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(correctOrderValidator)
    return adminOrderActions.correctToFail(this.id(ctx), payload, {
      ...auditLog.fromRequest(ctx),
      recentFactor: hasRecentFactor(ctx),
    })
  }

  private id(ctx: HttpContext) {
    return String(ctx.params.id).toLowerCase()
  }

  /** POST /api/admin/orders/create (spec): `{ success, order }`. */
  async specCreate(ctx: HttpContext) {
    const order = await this.create(ctx)
    return ctx.response.created({ success: true, order })
  }

  /** POST /api/admin/orders (react-admin create): the record. */
  async store(ctx: HttpContext) {
    return ctx.response.created(await this.create(ctx))
  }

  /** DELETE /api/admin/orders/id/:id (spec): `{ success, order }`; the order is kept, cancelled. */
  async specDestroy(ctx: HttpContext) {
    return { success: true, order: await this.cancel(ctx) }
  }

  /** DELETE /api/admin/orders/:id (react-admin delete): the (cancelled) record. */
  async destroy(ctx: HttpContext) {
    return this.cancel(ctx)
  }

  private async create(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(createOrderValidator)
    return adminOrderActions.create(payload, auditLog.fromRequest(ctx))
  }

  private async cancel(ctx: HttpContext) {
    const { reason } = await cancelOrderValidator.validate({
      reason: ctx.request.input('reason') ?? ctx.request.qs().reason,
    })
    return adminOrderActions.cancel(
      String(ctx.params.id).toLowerCase(),
      reason ?? null,
      auditLog.fromRequest(ctx)
    )
  }
}
