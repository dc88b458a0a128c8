import User from '#accounts/models/user'
import type Order from '#orders/models/order'
import type { OrderStatus } from '#orders/models/order'
import { AppError } from '#core/exceptions/app_error'
import { orderLifecycle, type Settlement } from '#orders/services/order_lifecycle'
import { orderQueries } from '#orders/services/order_queries'
import { checkoutService } from '#checkout/services/checkout_service'
import { auditLog, type AuditEntry } from '#admin/services/audit_log_service'
import { adminOrders } from '#admin/services/admin_orders_service'

/** Who acts (the signed-in admin) and from where, as `auditLog.fromRequest` gives it. */
export type Who = Pick<AuditEntry, 'actor' | 'ip'>

export type MarkRequest = {
  status: 'success' | 'fail'
  confirmationNumber?: string | null
  reason?: string | null
}

export type AdminNewOrder = {
  userId?: string
  email?: string
  productId: number
  style?: string
  size?: string
  profileId: string
  promoCode?: string | null
}

const LABEL: Record<OrderStatus, string> = {
  pending: 'pending',
  processing: 'being processed',
  success: 'successful',
  fail: 'failed (refunded)',
  cancelled: 'cancelled',
}

/** Statuses an order may be marked from; marking it with the status it has is a no-op. */
const MARKABLE_FROM: Record<MarkRequest['status'], OrderStatus[]> = {
  success: ['pending', 'processing', 'success'],
  fail: ['pending', 'processing', 'fail'],
}

function refused(order: Pick<Order, 'status'>, wanted: string) {
  return AppError.conflict(
    `This order is ${LABEL[order.status]}; it cannot be ${wanted}.`,
    'invalid_transition'
  )
}

/** What the money did, for the audit record (outcome statuses only, never card data). */
function settlementSummary(settlement: Settlement) {
  return {
    fee: settlement.fee?.status ?? null,
    hold: settlement.hold?.status ?? null,
    refund: settlement.refund?.status ?? null,
  }
}

/**
 * What an admin does to orders: mark a result by hand, place an order for a customer, and
 * cancel an order that has not been processed. Every change goes through the orders lifecycle or
 * the checkout service (so their rules and money steps apply) and is written to the audit log
 * with the admin's identity. Answers are the console's order record (`adminOrders.show`).
 */
export class AdminOrderActionsService {
  /**
   * pending|processing -> success (fee charged once, hold released) or -> fail (no fee, hold
   * released). Re-marking with the same status finishes any money step left undone and changes
   * nothing else; any other transition (a cancelled order, success <-> fail) is a 409.
   */
  async mark(publicId: string, request: MarkRequest, who: Who) {
    const before = await orderQueries.findByPublicId(publicId)
    const wanted = request.status === 'success' ? 'marked successful' : 'marked failed'
    if (!MARKABLE_FROM[request.status].includes(before.status)) throw refused(before, wanted)

    const { order, settlement } =
      request.status === 'success'
        ? await orderLifecycle.succeed(before, {
            confirmationNumber: request.confirmationNumber ?? null,
          })
        : await orderLifecycle.fail(before, { reason: request.reason ?? null })
    // The lifecycle applies a transition only from the states it may leave: if another actor
    // (a release run, a customer's cancel) got there first, say so instead of pretending.
    if (order.status !== request.status) throw refused(order, wanted)

    await auditLog.record({
      ...who,
      action: request.status === 'success' ? 'order.mark_success' : 'order.mark_fail',
      subjectType: 'order',
      subjectId: order.publicId,
      reason: request.reason ?? null,
      meta: {
        from: before.status,
        to: order.status,
        changed: before.status !== order.status,
        confirmationNumber: request.confirmationNumber ?? null,
        settlement: settlementSummary(settlement),
      },
    })
    return adminOrders.show(order.publicId)
  }

  /**
   * An order placed for a customer through the checkout service itself: stock, the duplicate
   * rule, card on file, the release time and promo codes apply exactly as for the customer.
   */
  async create(input: AdminNewOrder, who: Who) {
    const customer = await this.customer(input)
    const order = await checkoutService.checkout(customer, {
      productId: input.productId,
      style: input.style,
      size: input.size,
      profileId: input.profileId,
      promoCode: input.promoCode ?? undefined,
    })
    await auditLog.record({
      ...who,
      action: 'order.create',
      subjectType: 'order',
      subjectId: order.publicId,
      meta: {
        customerId: customer.uuid,
        productId: order.productId,
        style: order.style,
        size: order.size,
        profileId: order.profileId,
        promoCode: order.promoCode,
      },
    })
    return adminOrders.show(order.publicId)
  }

  /**
   * Deleting an order cancels it (pending -> cancelled: slot back, hold released or never
   * placed). The row is kept, as cancelled, for the payment ledger and the audit trail.
   * Cancelling a cancelled order again is a no-op; an order that is being processed or has a
   * result is refused.
   */
  async cancel(publicId: string, reason: string | null, who: Who) {
    const before = await orderQueries.findByPublicId(publicId)
    if (!['pending', 'cancelled'].includes(before.status)) {
      throw refused(before, 'cancelled or deleted any more')
    }
    const finalReason = reason?.trim() || 'Cancelled by an admin.'
    const { order, cancelled, settlement } = await orderLifecycle.cancel(before, {
      reason: finalReason,
    })
    if (order.status !== 'cancelled') throw refused(order, 'cancelled or deleted any more')

    if (cancelled) {
      await auditLog.record({
        ...who,
        action: 'order.cancel',
        subjectType: 'order',
        subjectId: order.publicId,
        reason: finalReason,
        meta: { from: before.status, to: order.status, settlement: settlementSummary(settlement) },
      })
    }
    return adminOrders.show(order.publicId)
  }

  private async customer(input: AdminNewOrder): Promise<User> {
    const user = input.userId
      ? await User.findBy('uuid', input.userId)
      : input.email
        ? await User.query().where('email', input.email.trim().toLowerCase()).first()
        : null
    if (!input.userId && !input.email) {
      throw AppError.unprocessable('Please choose the customer.', {
        userId: 'Please choose the customer.',
      })
    }
    if (!user) throw AppError.notFound('Customer not found.', 'customer_not_found')
    return user
  }
}

export const adminOrderActions = new AdminOrderActionsService()
