import db from '@adonisjs/lucid/services/db'
import MailMessage from '#mail/models/mail_message'
import { AppError } from '#core/exceptions/app_error'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { sqlTime } from '#core/helpers/sql_time'
import { affectedRows } from '#core/helpers/db_errors'
import { filters, oneOf, text, type ListDefinition } from '#core/services/rest_query'
import { orderQueries } from '#orders/services/order_queries'
import { orderNumber } from '#orders/services/order_numbers'
import { mailIntake } from '#mail/services/mail_intake'

type Who = Pick<AuditEntry, 'actor' | 'ip'>

export const mailMessageList: ListDefinition = {
  resource: 'mail-messages',
  sortable: {
    receivedAt: 'mail_messages.received_at',
    action: 'mail_messages.action',
    kind: 'mail_messages.kind',
    retailer: 'mail_messages.retailer',
  },
  defaultSort: ['receivedAt', 'desc'],
  search: ['mail_messages.subject', 'mail_messages.sender', 'mail_messages.retailer_order_number'],
  filters: {
    action: filters.equals(
      'mail_messages.action',
      oneOf(['success', 'refund', 'recorded', 'review', 'duplicate', 'ignored'] as const)
    ),
    kind: filters.equals(
      'mail_messages.kind',
      oneOf(['confirmation', 'shipped', 'cancelled', 'unknown'] as const)
    ),
    dkim: filters.equals('mail_messages.dkim', oneOf(['pass', 'fail', 'none'] as const)),
    retailer: filters.equals('mail_messages.retailer', text(32)),
    orderId: filters.equals('orders.public_id', text(36)),
  },
}

/** A message as the console shows it: its evidence and what it did, never its content. */
export function presentMailMessage(message: MailMessage) {
  const orderPublicId = message.$extras.order_public_id ?? null
  const orderRowId = message.orderId
  return {
    id: message.publicId,
    messageId: message.messageId,
    door: message.door,
    sender: message.sender,
    recipient: message.recipient,
    subject: message.subject,
    retailer: message.retailer,
    kind: message.kind,
    orderId: orderPublicId,
    orderNumber: orderRowId ? orderNumber(orderRowId) : null,
    dkim: message.dkim,
    dkimDomain: message.dkimDomain,
    action: message.action,
    reason: message.reason,
    retailerOrderNumber: message.retailerOrderNumber,
    trackingNumber: message.trackingNumber,
    sha256: message.sha256,
    rawKept: message.rawSealed !== null,
    receivedAt: message.receivedAt.toISO(),
    reviewedAt: message.reviewedAt?.toISO() ?? null,
    reviewedBy: message.reviewedBy,
  }
}

/** The console's Mail page: the messages, the review list and what an operator does with it. */
export const mailReview = {
  query() {
    return MailMessage.query()
      .leftJoin('orders', 'orders.id', 'mail_messages.order_id')
      .select('mail_messages.*', 'orders.public_id as order_public_id')
  },

  async find(publicId: string) {
    const message = await this.query().where('mail_messages.public_id', publicId).first()
    if (!message) throw AppError.notFound('Message not found.', 'mail_not_found')
    return message
  },

  /** The messages of one order (its evidence, for the order's page). */
  async forOrder(orderId: number) {
    const rows = await this.query()
      .where('mail_messages.order_id', orderId)
      .orderBy('mail_messages.received_at', 'asc')
    return rows.map(presentMailMessage)
  },

  /**
   * A message in review tried against the order the operator names, for the reason they give:
   * the same checks as on arrival, so only a valid signature of that order's retailer moves its
   * money. The message is taken from review by one conditional update, so of two assigns at once
   * one acts and the other gets 409. Audited.
   */
  async assign(publicId: string, orderPublicId: string, reason: string, who: Who) {
    const message = await this.find(publicId)
    const order = await orderQueries.findByPublicId(orderPublicId)
    const reviewer = (who.actor?.email ?? who.actor?.label ?? 'system').slice(0, 255)
    const taken = await db
      .from('mail_messages')
      .where('id', message.id)
      .where('action', 'review')
      .update({
        action: null,
        claimed_at: sqlTime(),
        reviewed_at: sqlTime(),
        reviewed_by: reviewer,
        updated_at: sqlTime(),
      })
    if (affectedRows(taken) !== 1) {
      throw AppError.conflict('Only a message in review can be assigned.', 'not_in_review')
    }
    let report
    try {
      report = await mailIntake.assign(publicId, order)
    } catch (error) {
      // Nothing acted: the message goes back to the review list as it was.
      await db
        .from('mail_messages')
        .where('id', message.id)
        .whereNull('action')
        .update({ action: 'review', message_key: `review:${message.id}` })
      throw error
    }
    await auditLog.record({
      ...who,
      action: 'mail.assign',
      subjectType: 'order',
      subjectId: order.publicId,
      reason,
      meta: {
        mail: publicId,
        action: report.action,
        kind: report.kind,
        dkim: report.dkim,
        result: report.reason,
      },
    })
    return presentMailMessage(await this.find(publicId))
  },

  /** A message in review set aside: it moves nothing, ever. Audited. */
  async dismiss(publicId: string, reason: string, who: Who) {
    const message = await this.find(publicId)
    const changed = await db
      .from('mail_messages')
      .where('id', message.id)
      .where('action', 'review')
      .update({
        action: 'ignored',
        reason: `Dismissed: ${reason}`.slice(0, 255),
        reviewed_at: sqlTime(),
        reviewed_by: (who.actor?.email ?? who.actor?.label ?? 'system').slice(0, 255),
        updated_at: sqlTime(),
      })
    if (affectedRows(changed) !== 1) {
      throw AppError.conflict('Only a message in review can be dismissed.', 'not_in_review')
    }
    await auditLog.record({
      ...who,
      action: 'mail.dismiss',
      subjectType: 'mail',
      subjectId: publicId,
      reason,
      meta: { kind: message.kind, dkim: message.dkim, sender: message.sender },
    })
    return presentMailMessage(await this.find(publicId))
  },
}
