import db from '@adonisjs/lucid/services/db'
import type { OrderRecord } from '#orders/services/order_queries'
import type { OrderStatus } from '#shared/vocabulary'
import { releaseOrderQueries } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { orderEmails } from '#notifications/services/order_emails'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import { AppError } from '#core/exceptions/app_error'

export type ResendScope = { productId?: number; runId?: number; status?: OrderStatus }

const ALL_STATUSES: OrderStatus[] = [
  'pending',
  'processing',
  'success',
  'fail',
  'cancelled',
  'retailer_cancelled',
]

/**
 * Sending orders' e-mails again in bulk, within a scope (a product, a release run, a status, or
 * several of them together): never "every order ever placed". `count` is the dry call that says
 * how many e-mails a send would write; `send` writes them (marked as resends) and is audited.
 */
export class EmailResends {
  async orders(scope: ResendScope): Promise<OrderRecord[]> {
    if (!scope.productId && !scope.runId && !scope.status) {
      throw AppError.unprocessable(
        'Choose which orders to e-mail again: a product, a release run or a status.',
        { scope: 'Give a product, a release run or a status.' },
        'scope_required'
      )
    }
    let orders = await releaseOrderQueries.withStatuses(
      scope.status ? [scope.status] : ALL_STATUSES,
      scope.productId ?? null
    )
    if (scope.runId) {
      const tasks = await db.from('release_tasks').where('run_id', scope.runId).select('order_id')
      const inRun = new Set(tasks.map((task) => Number(task.order_id)))
      orders = orders.filter((order) => inRun.has(order.id))
    }
    return orders
  }

  /** How many e-mails a send would write (orders with a current message), and how many have none. */
  async count(scope: ResendScope) {
    const orders = await this.orders(scope)
    const emails = orders.filter((order) => orderEmails.current(order) !== null).length
    return { scope, orders: orders.length, emails, skipped: orders.length - emails }
  }

  async send(
    scope: ResendScope,
    who: { actor?: AuditActor | null; ip?: string | null; via: string },
    onItem?: () => void
  ) {
    const orders = await this.orders(scope)
    const result = await orderEmails.resendMany(orders, onItem)
    const actorLabel = who.actor?.email ?? who.actor?.label ?? 'system'
    const sentTo = new Set(result.messages.map((message) => message.orderId))
    for (const order of orders) {
      if (!sentTo.has(order.publicId)) continue
      await orderTimeline.append({
        orderId: order.id,
        kind: 'email_resend',
        from: order.status,
        to: order.status,
        source: who.via,
        actor: actorLabel,
        meta: { scope },
      })
    }
    await auditLog.record({
      actor: who.actor ?? null,
      ip: who.ip ?? null,
      action: 'order.email_resend_all',
      subjectType: 'order',
      meta: { via: who.via, scope, sent: result.sent, skipped: result.skipped },
    })
    return { scope, sent: result.sent, skipped: result.skipped }
  }
}

export const emailResends = new EmailResends()
