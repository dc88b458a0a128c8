import { mailReview } from '#mail/services/mail_review'
import { orderQueries } from '#orders/services/order_queries'
import AuditLog from '#core/models/audit_log'
import { AppError } from '#core/exceptions/app_error'
import { emailAdmin, presentEmail } from '#notifications/services/email_admin_service'
import { orderList } from '#admin/services/list_definitions'
import { presentAdminOrder, presentAuditEntry } from '#admin/services/presenters'
import { runList } from '#core/services/rest_query'
import { paymentService } from '#payments/services/payment_service'
import { orderTimeline } from '#orders/services/order_timeline'
import { releaseResults } from '#release/services/release_results'
import type { LedgerEntryRecord } from '#payments/services/ledger'
import { mailIntakeConfig } from '#config/mail_intake'

/** A ledger row as the console shows it: what happened to the money, no gateway refs or card data. */
export function presentAdminLedgerEntry(entry: LedgerEntryRecord) {
  return {
    id: entry.id,
    kind: entry.kind,
    amountCents: entry.amountCents,
    status: entry.status,
    idempotencyKey: entry.idempotencyKey,
    createdAt: entry.createdAt.toISO(),
    completedAt: entry.completedAt?.toISO() ?? null,
    errorCode: entry.errorCode,
  }
}

/**
 * The read side of orders for the console: the filtered list, and one order with its e-mail
 * history, audit trail, payment ledger and timeline. Never the sealed ACO data (that is the audited
 * export's job). State changes live in `admin_order_actions_service` (over the lifecycle).
 */
export class AdminOrdersService {
  list(qs: Record<string, unknown>) {
    return runList(orderQueries.query(), orderList, qs, presentAdminOrder)
  }

  /** One order, by its public id or its `DS-` number (`orderQueries.findByReference`). */
  async find(reference: string) {
    const { id } = await orderQueries.findByReference(reference)
    const query = orderQueries.query().where('orders.id', id)
    orderList.decorate!(query)
    const order = await query.first()
    if (!order) throw AppError.notFound('Order not found.', 'order_not_found')
    return order
  }

  async show(reference: string) {
    const order = await this.find(reference)
    const [emails, audit, ledger, timeline, task, mail] = await Promise.all([
      emailAdmin.forOrder(order.id),
      AuditLog.query()
        .where('subject_type', 'order')
        .where('subject_id', order.publicId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(200),
      paymentService.ledgerFor(order.id),
      orderTimeline.forOrder(order.id),
      releaseResults.task(order.id),
      mailReview.forOrder(order.id),
    ])
    const customerId = presentAdminOrder(order).customerId
    return {
      ...presentAdminOrder(order),
      /** The order's round with the checkout engines (1, then 2... after each retry). */
      round: Number(task?.round_number ?? 1),
      emails: emails.map((email) => presentEmail(email, { orderId: order.publicId, customerId })),
      auditTrail: audit.map(presentAuditEntry),
      ledger: ledger.map(presentAdminLedgerEntry),
      timeline,
      /** The retailer's e-mails about the order: the evidence of its outcome. */
      mail,
      /**
       * For "Mark success": whether the mail intake is on (MAIL_INTAKE_DOMAIN), how many e-mails
       * arrived for the order and how many carry a valid DKIM signature.
       */
      mailEvidence: {
        intakeOn: mailIntakeConfig().domain !== null,
        messages: mail.length,
        signed: mail.filter((message) => message.dkim === 'pass').length,
      },
      /** The retailer's e-mail contradicted the checkout bot (the retailer's word was taken). */
      mailFlag: timeline.some((event) => event.meta?.flag === 'bot_disagreed'),
    }
  }
}

export const adminOrders = new AdminOrdersService()
