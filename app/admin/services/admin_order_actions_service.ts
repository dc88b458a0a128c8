import { userQueries, type UserRecord } from '#accounts/services/user_queries'
import { productQueries } from '#catalog/services/product_queries'
import { isLateRefundKey, paymentKeys, paymentService } from '#payments/services/payment_service'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderTimeline, type OrderEventKind } from '#orders/services/order_timeline'
import { failureCode } from '#orders/services/failure_reasons'
import { orderEmails } from '#notifications/services/order_emails'
import { releaseResults } from '#release/services/release_results'
import { isUniqueViolation } from '#core/helpers/db_errors'
import type { OrderRecord } from '#orders/services/order_queries'
import type { OrderStatus } from '#shared/vocabulary'
import { AppError } from '#core/exceptions/app_error'
import { stepUpRequired } from '#core/middleware/factor_check'
import { STEP_UP_REFUND_ABOVE_CENTS } from '#shared/staff_roles'
import { transitionRefusal } from '#orders/services/transition_refusal'
import { orderCardData } from '#orders/services/order_card_data'
import { profileService } from '#profiles/services/profile_service'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderSettlement, type Settlement } from '#payments/services/order_settlement'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { orderQueries } from '#orders/services/order_queries'
import { checkoutService } from '#checkout/services/checkout_service'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { orderOutcome } from '#release/services/order_outcome'
import { adminOrders } from '#admin/services/admin_orders_service'
import { isFeeDue } from '#shared/vocabulary'

/** Who acts (the signed-in admin) and from where, as `auditLog.fromRequest` gives it. */
/**
 * Who acts. `recentFactor`: whether the console's caller presented a second factor in the last
 * five minutes (absent for the CLI, whose operator is trusted as the machine's).
 */
export type Who = Pick<AuditEntry, 'actor' | 'ip'> & { recentFactor?: boolean }

/** A refund above the step-up threshold needs a fresh factor from a console caller. */
function assertRefundAllowed(who: Who, amountCents: number) {
  if (who.recentFactor === false && amountCents > STEP_UP_REFUND_ABOVE_CENTS) {
    throw stepUpRequired()
  }
}

export type MarkRequest = {
  status: 'success' | 'fail'
  confirmationNumber?: string | null
  reason?: string | null
  /** The failure's category for the customer's e-mail (read from `reason` when not given). */
  reasonCode?: string | null
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

/**
 * A person's money action on an order: under the order's money lock, refused at once with 409
 * `order_busy` (nothing changed) while another one (a charge, a refund, a card check, another
 * admin's tool, the CLI) is in flight. The order is read again inside the lock.
 */
async function oneAtATime<T>(reference: string, action: (order: OrderRecord) => Promise<T>) {
  const { id } = await orderQueries.findByReference(reference)
  return withOrderMoney(id, async () => action(await orderQueries.findById(id)), { waitMs: 0 })
}

/** A fee call whose answer is not in yet: waive and correct wait for it (the money may land). */
const FEE_IN_FLIGHT =
  "A charge of this order's fee was sent to the payment provider and its answer is not in yet; " +
  'nothing was changed. Try again once the next release run (or the provider) has settled it.'

function refused(order: Pick<OrderRecord, 'status'>, wanted: string) {
  return AppError.conflict(transitionRefusal(order.status, wanted), 'invalid_transition')
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
   * A result by hand (the operator checked the order out, or saw it fail): through the one
   * outcome path, like an engine's result. Allowed for orders of a released product that are
   * pending or processing; marking an order with the result it has is a no-op (nothing charged
   * or mailed twice); anything else (cancelled, success <-> fail, not released) is a 409.
   */
  async mark(publicId: string, request: MarkRequest, who: Who, via = 'console') {
    return oneAtATime(publicId, (order) => this.markLocked(order, request, who, via))
  }

  private async markLocked(order: OrderRecord, request: MarkRequest, who: Who, via: string) {
    if (request.status === 'success') await this.requireEvidence(order, request)
    await orderOutcome.apply(
      {
        orderId: order.publicId,
        status: request.status,
        confirmationNumber: request.confirmationNumber ?? null,
        reason: request.reason ?? null,
        reasonCode: request.reasonCode ?? null,
      },
      { source: 'manual', actor: who.actor, ip: who.ip, via }
    )
    return adminOrders.show(order.publicId)
  }

  /**
   * A success by hand charges the service fee at once, so it needs the retailer's confirmation
   * number or a written reason (kept in the audit log): without either it is a 422 and nothing
   * changes. A mark the order refuses anyway (not released, cancelled, failed) gets that 409.
   */
  private async requireEvidence(order: OrderRecord, request: MarkRequest) {
    if (request.confirmationNumber?.trim() || request.reason?.trim()) return
    if (await orderOutcome.check(order, { status: 'success' }, 'manual')) return
    throw AppError.unprocessable(
      "Marking an order successful charges its fee: give the retailer's confirmation number, " +
        'or a reason when there is none.',
      { confirmationNumber: "The retailer's confirmation number, or a reason, is required." },
      'confirmation_required'
    )
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
      outsideWaitingRoom: true,
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
    return oneAtATime(publicId, (before) => this.cancelLocked(before, reason, who))
  }

  private async cancelLocked(before: OrderRecord, reason: string | null, who: Who) {
    if (!['pending', 'cancelled'].includes(before.status)) {
      throw refused(before, 'cancelled or deleted any more')
    }
    const finalReason = reason?.trim() || 'Cancelled by an admin.'
    const { order, cancelled, settlement } = await orderSettlement.cancel(before, {
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

  /**
   * Refunds the fee of an order, all of what is left or `amountCents` of it, through the gateway
   * and the ledger (each refund its own idempotency key). The customer is e-mailed once per
   * refund; the timeline and the audit log say who and why.
   */
  async refundFee(
    publicId: string,
    request: { amountCents?: number | null; reason: string },
    who: Who,
    via = 'console'
  ) {
    return oneAtATime(publicId, (before) => this.refundFeeLocked(before, request, who, via))
  }

  private async refundFeeLocked(
    before: OrderRecord,
    request: { amountCents?: number | null; reason: string },
    who: Who,
    via: string
  ) {
    if (before.feeStatus !== 'paid' || !before.feePaymentId) {
      throw AppError.conflict(
        before.feeStatus === 'refunded'
          ? 'The fee of this order was refunded in full already.'
          : 'This order has no charged fee to refund.',
        before.feeStatus === 'refunded' ? 'already_refunded' : 'nothing_to_refund'
      )
    }
    assertRefundAllowed(who, request.amountCents ?? before.priceCents - before.refundedCents)
    const outcome = await paymentService.refund(before, {
      amountCents: request.amountCents ?? undefined,
    })
    if (outcome.status === 'retry' || outcome.status === 'failed') {
      throw new AppError(
        outcome.status === 'retry'
          ? 'The payment provider is not answering; the refund was not made. Try again in a moment (it will not be made twice).'
          : `The payment provider refused the refund (${outcome.code}).`,
        { status: outcome.status === 'retry' ? 503 : 409, code: 'refund_' + outcome.status }
      )
    }
    if (outcome.status !== 'refunded') {
      throw AppError.conflict('This order has no charged fee to refund.', 'nothing_to_refund')
    }
    const order = await orderQueries.findById(before.id)
    const refundKey = await this.lastRefundKey(order)
    await orderEmails.sendRefund(order, outcome.amountCents, refundKey)
    await this.trail(order, who, via, {
      kind: 'fee_refund',
      action: 'order.fee_refund',
      from: before.status,
      reason: request.reason,
      meta: {
        amountCents: outcome.amountCents,
        refundedCents: order.refundedCents,
        feeStatus: order.feeStatus,
      },
    })
    return adminOrders.show(order.publicId)
  }

  /**
   * Waives a fee that is due (a successful order whose charge was declined or waits for the
   * customer's authentication): it is never tried again. The customer is told.
   */
  async waiveFee(publicId: string, request: { reason: string }, who: Who, via = 'console') {
    return oneAtATime(publicId, (before) => this.waiveFeeLocked(before, request, who, via))
  }

  private async waiveFeeLocked(
    before: OrderRecord,
    request: { reason: string },
    who: Who,
    via: string
  ) {
    if (!isFeeDue(before)) {
      throw AppError.conflict(
        'Only a fee that is due (a successful order whose charge was declined) can be waived.',
        'fee_not_due'
      )
    }
    if (await paymentService.feeCallInFlight(before.id)) {
      throw AppError.conflict(FEE_IN_FLIGHT, 'fee_in_flight')
    }
    if (!(await orderPaymentState.feeWaived(before.id))) {
      throw AppError.conflict('The fee of this order changed meanwhile; reload it.', 'fee_changed')
    }
    const { order } = await orderSettlement.settle(before.id)
    await orderEmails.sendWaived(order)
    await this.trail(order, who, via, {
      kind: 'fee_waived',
      action: 'order.fee_waive',
      from: before.status,
      reason: request.reason,
      meta: { amountCents: order.priceCents, feeStatusBefore: before.feeStatus },
    })
    return adminOrders.show(order.publicId)
  }

  /**
   * Tries a failed order again while its release is open (released, still available): the order
   * goes back to pending, takes a slot again if it gave its slot back (refused when the release
   * is sold out), gets a new $1.00 hold (its own idempotency key) and is submitted by the next
   * run. Only orders that failed at checkout (no fee charged, refunded or due) can be retried.
   */
  async retry(publicId: string, request: { reason: string }, who: Who, via = 'console') {
    return oneAtATime(publicId, (before) => this.retryLocked(before, request, who, via))
  }

  private async retryLocked(
    before: OrderRecord,
    request: { reason: string },
    who: Who,
    via: string
  ) {
    if (before.status !== 'fail' || before.feeStatus !== 'none') {
      throw AppError.conflict(
        before.status === 'fail'
          ? 'This order was corrected after a charged fee; it cannot be tried again.'
          : `Only a failed order can be tried again; this one is ${before.status}.`,
        'not_retryable'
      )
    }
    const product = await productQueries.find(before.productId)
    if (!product?.isReleased || !product.avail) {
      throw AppError.conflict(
        'The release is not open (not dropped yet, or withdrawn); the order cannot be tried again.',
        'release_not_open'
      )
    }
    // Its card data was deleted when it failed: the checkout bot needs the profile's card again.
    const card = await profileService.cardOf(before.userId, before.profileId)
    if (!card?.number || !card.code) {
      throw AppError.conflict(
        "The customer's card for this order is no longer kept (profile deleted, or its security " +
          'code deleted after the retention period); they need to check out again.',
        'card_not_kept'
      )
    }
    let order
    try {
      order = await orderLifecycle.retry(before.id, (trx) =>
        releaseResults.resetForRetry(before.id, trx)
      )
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppError.conflict(
          'The customer already has another active order for this release with this profile.',
          'duplicate'
        )
      }
      throw error
    }
    if (!order) {
      throw AppError.conflict('This order changed meanwhile; reload it.', 'order_changed')
    }
    await orderCardData.restore(order.id, card)
    await orderEmails.sendRetry(order)
    await this.trail(order, who, via, {
      kind: 'retry',
      action: 'order.retry',
      from: before.status,
      reason: request.reason,
      meta: { round: order.holdRound, slotRetaken: before.slotReturned },
    })
    return adminOrders.show(order.publicId)
  }

  /**
   * Corrects a successful order to failed (the retailer cancelled after confirming): the fee is
   * refunded (what is left of it), a fee that was due is never charged, and the customer gets a
   * correction e-mail in their own words.
   */
  async correctToFail(
    publicId: string,
    request: { reason: string; reasonCode?: string | null },
    who: Who,
    via = 'console'
  ) {
    return oneAtATime(publicId, (before) => this.correctToFailLocked(before, request, who, via))
  }

  private async correctToFailLocked(
    before: OrderRecord,
    request: { reason: string; reasonCode?: string | null },
    who: Who,
    via: string
  ) {
    if (before.status !== 'success') {
      throw AppError.conflict(
        `Only a successful order can be corrected to failed; this one is ${before.status}.`,
        'not_successful'
      )
    }
    if (await paymentService.feeCallInFlight(before.id)) {
      throw AppError.conflict(FEE_IN_FLIGHT, 'fee_in_flight')
    }
    if (before.feeStatus === 'paid') {
      assertRefundAllowed(who, before.priceCents - before.refundedCents)
    }
    const code = failureCode(request.reasonCode, request.reason)
    const { order, changed, settlement } = await orderSettlement.correctToFail(before.id, {
      reason: request.reason,
      code,
    })
    if (!changed) {
      throw AppError.conflict('This order changed meanwhile; reload it.', 'order_changed')
    }
    if (settlement.refund?.status === 'retry' || settlement.refund?.status === 'failed') {
      // The order is failed; the refund is finished by the refund tool (same key, no double).
      await this.trail(order, who, via, {
        kind: 'corrected',
        action: 'order.correct_fail',
        from: before.status,
        reason: request.reason,
        meta: { failCode: code, refund: settlement.refund.status },
      })
      throw new AppError(
        'The order is now failed, but the fee refund did not go through yet: use Refund fee to finish it.',
        { status: 502, code: 'refund_pending' }
      )
    }
    await orderEmails.sendCorrected(order)
    await this.trail(order, who, via, {
      kind: 'corrected',
      action: 'order.correct_fail',
      from: before.status,
      reason: request.reason,
      meta: {
        failCode: code,
        refundedCents: order.refundedCents,
        feeStatus: order.feeStatus,
      },
    })
    return adminOrders.show(order.publicId)
  }

  /** Timeline row and audit entry of a money tool. */
  private async trail(
    order: OrderRecord,
    who: Who,
    via: string,
    entry: {
      kind: OrderEventKind
      action: string
      from: OrderStatus
      reason: string
      meta: Record<string, unknown>
    }
  ) {
    const actor = who.actor ?? null
    await orderTimeline.append({
      orderId: order.id,
      kind: entry.kind,
      from: entry.from,
      to: order.status,
      source: via,
      actor: actor?.email ?? actor?.label ?? 'system',
      note: entry.reason,
      meta: entry.meta,
    })
    await auditLog.record({
      ...who,
      action: entry.action,
      subjectType: 'order',
      subjectId: order.publicId,
      reason: entry.reason,
      meta: { via, from: entry.from, to: order.status, ...entry.meta },
    })
  }

  private async lastRefundKey(order: OrderRecord) {
    const rows = await paymentService.ledgerFor(order.id)
    const refunds = rows.filter(
      (row) =>
        row.kind === 'refund' && row.status === 'succeeded' && !isLateRefundKey(row.idempotencyKey)
    )
    return refunds.length ? refunds[refunds.length - 1].idempotencyKey : paymentKeys.refund(order)
  }

  private async customer(input: AdminNewOrder): Promise<UserRecord> {
    const user = input.userId
      ? await userQueries.findByUuid(input.userId)
      : input.email
        ? await userQueries.findByEmail(input.email)
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
