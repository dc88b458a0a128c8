import { AppError } from '#core/exceptions/app_error'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import { clock } from '#core/services/clock'
import { opsLog } from '#core/services/ops_log'
import { orderEmails } from '#notifications/services/order_emails'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { orderSettlement } from '#payments/services/order_settlement'
import { labelOf } from '#release/services/outcome_context'
import { orderOutcome } from '#release/services/order_outcome'
import { releaseResults, type CheckoutResult } from '#release/services/release_results'

/** The retailer's signed e-mail as the evidence of an outcome (the mail intake). */
export type MailEvidence = {
  /** The message's Message-ID: the actor is `mail:<message-id>`. */
  messageId: string
  /** The retailer's own order number, the order's confirmation. */
  retailerOrderNumber: string | null
  /** The retailer whose signature vouches for the message, and what it says was bought. */
  retailer?: string | null
  size?: string | null
  totalCents?: number | null
}

/** What the retailer's e-mail did to an order (the intake's `action`). */
export type MailOutcome =
  | { action: 'success'; corrected: boolean }
  | { action: 'refund'; refunded: boolean }
  | { action: 'recorded'; note: string }
  | { action: 'review'; reason: string }

async function find(publicId: string): Promise<OrderRecord | null> {
  try {
    return await orderQueries.findByPublicId(publicId)
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null
    throw error
  }
}

function actorOf(evidence: MailEvidence): AuditActor {
  return { label: `mail:${evidence.messageId}`.slice(0, 250) }
}

/** A confirmation through the one outcome path; a refusal there is one for review. */
async function applyConfirmation(
  order: OrderRecord,
  evidence: MailEvidence,
  actor: AuditActor
): Promise<MailOutcome | null> {
  const mailResult: CheckoutResult = {
    orderId: order.publicId,
    status: 'success',
    confirmationNumber: evidence.retailerOrderNumber,
    retailer: evidence.retailer ?? null,
    size: evidence.size ?? null,
    totalCents: evidence.totalCents ?? null,
  }
  try {
    await orderOutcome.apply(mailResult, { source: 'mail', actor, via: 'mail' })
  } catch (error) {
    if (error instanceof AppError) return { action: 'review', reason: error.message }
    throw error
  }
  return null
}

/**
 * A failed order the retailer confirmed after all: the retailer's word wins, the fee is charged
 * once, and the timeline flags the disagreement for the console.
 */
async function correctByRetailer(
  before: OrderRecord,
  evidence: MailEvidence,
  actor: AuditActor
): Promise<MailOutcome> {
  const { order, changed } = await orderSettlement.correctToSuccess(before.id, {
    confirmationNumber: evidence.retailerOrderNumber,
  })
  if (!changed) return { action: 'review', reason: 'The order changed meanwhile.' }
  await releaseResults.doneByRetailer(order.id, evidence.retailerOrderNumber)
  await orderEmails.sendOutcome(order)
  opsLog('order.result', {
    order: order.publicId,
    source: 'mail',
    outcome: 'success',
    status: order.status,
    fee: order.feeStatus,
    corrected: true,
  })
  await orderTimeline.append({
    orderId: order.id,
    kind: 'corrected',
    from: before.status,
    to: order.status,
    source: 'mail',
    actor: labelOf(actor),
    note: evidence.retailerOrderNumber,
    meta: {
      flag: 'bot_disagreed',
      botSaid: 'fail',
      retailerSaid: 'success',
      feeStatus: order.feeStatus,
    },
  })
  await auditLog.record({
    actor,
    action: 'order.result',
    subjectType: 'order',
    subjectId: order.publicId,
    meta: {
      source: 'mail',
      via: 'mail',
      from: before.status,
      to: order.status,
      changed: true,
      corrected: true,
      confirmationNumber: evidence.retailerOrderNumber,
      settlement: { fee: order.feeStatus, hold: order.holdStatus },
    },
  })
  return { action: 'success', corrected: true }
}

/** How the retailer's signed e-mail (its signature, retailer and address verified) moves an order. */
export const retailerOutcomes = {
  /**
   * The retailer's signed confirmation. A submitted order succeeds through the one outcome path
   * like any result (fee once, hold released, e-mail, timeline, audit as `mail:<message-id>`); an
   * order the bot already reported successful is left as it is (the same outcome, whichever came
   * first); an order the bot reported failed is corrected to success.
   */
  async confirm(publicId: string, evidence: MailEvidence): Promise<MailOutcome> {
    const order = await find(publicId)
    if (!order) return { action: 'review', reason: 'No such order.' }
    return withOrderMoney(order.id, async () => {
      const current = await orderQueries.findById(order.id)
      const actor = actorOf(evidence)
      if (current.status === 'success') {
        const task = await releaseResults.task(current.id)
        if (evidence.retailer && task?.retailer && task.retailer !== evidence.retailer) {
          // Another retailer the order was sent to confirms it too: an extra success, no fee.
          return (
            (await applyConfirmation(current, evidence, actor)) ?? {
              action: 'recorded',
              note: 'Extra success: the order was already won at another retailer; no second fee.',
            }
          )
        }
        return { action: 'recorded', note: 'The order was already successful.' }
      }
      if (current.status === 'fail' && current.feeStatus === 'none') {
        return correctByRetailer(current, evidence, actor)
      }
      if (current.status !== 'processing') {
        return {
          action: 'review',
          reason: `The order is ${current.status}; a confirmation cannot apply to it.`,
        }
      }
      return (
        (await applyConfirmation(current, evidence, actor)) ?? {
          action: 'success',
          corrected: false,
        }
      )
    })
  },

  /**
   * The retailer's signed cancellation of an order it had confirmed: within `withinDays` of the
   * success the order becomes `retailer_cancelled`, the whole fee is refunded through the ledger
   * under its own key (`paymentKeys.retailerCancelRefund`), the customer is e-mailed, the
   * timeline and the audit log (`mail:<message-id>`) say so. Once per order, whatever reads it.
   */
  async cancel(publicId: string, evidence: MailEvidence, withinDays: number): Promise<MailOutcome> {
    const order = await find(publicId)
    if (!order) return { action: 'review', reason: 'No such order.' }
    return withOrderMoney(order.id, async () => {
      const before = await orderQueries.findById(order.id)
      const actor = actorOf(evidence)
      if (before.status === 'retailer_cancelled') {
        return { action: 'recorded', note: 'The order was already cancelled by the retailer.' }
      }
      if (before.status !== 'success') {
        return {
          action: 'review',
          reason: `The order is ${before.status}; only a successful order can be cancelled by the retailer.`,
        }
      }
      const since = before.succeededAt?.toMillis() ?? before.createdAt.toMillis()
      if (clock.nowMs() - since > withinDays * 86_400_000) {
        return {
          action: 'review',
          reason: `The order succeeded more than ${withinDays} days ago (REFUND_ON_CANCEL_DAYS).`,
        }
      }
      const reason = 'Cancelled by the retailer after confirming it.'
      const {
        order: after,
        changed,
        settlement,
      } = await orderSettlement.retailerCancel(before.id, { reason })
      if (!changed) return { action: 'review', reason: 'The order changed meanwhile.' }
      const refund = settlement.refund?.status ?? null
      await orderEmails.sendRetailerCancelled(after)
      await orderTimeline.append({
        orderId: after.id,
        kind: 'retailer_cancelled',
        from: before.status,
        to: after.status,
        source: 'mail',
        actor: labelOf(actor),
        note: reason,
        meta: { refund, refundedCents: after.refundedCents, feeStatus: after.feeStatus },
      })
      await auditLog.record({
        actor,
        action: 'order.retailer_cancel',
        subjectType: 'order',
        subjectId: after.publicId,
        reason,
        meta: {
          source: 'mail',
          from: before.status,
          to: after.status,
          refund,
          refundedCents: after.refundedCents,
        },
      })
      return { action: 'refund', refunded: refund === 'refunded' }
    })
  },
}
