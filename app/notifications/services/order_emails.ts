import type Order from '#orders/models/order'
import { notifications } from '#notifications/services/notification_service'
import { templates, markAsResend, type RenderedEmail } from '#notifications/templates'
import { AppError } from '#core/exceptions/app_error'

type Rendered = { template: string; message: RenderedEmail; dedupeKey: string }

/**
 * The e-mails that follow an order's outcome. Automatic sends are once per order and kind (a
 * dedupe key in the outbox), so a release run repeated after a crash never mails twice; a resend
 * (admin, CLI) is a new, clearly marked outbox row for the order's current-status message.
 */
export class OrderEmails {
  /** The message that describes the order as it is now, or null when there is none to send. */
  current(order: Order): Rendered | null {
    const base = { productTitle: order.productTitle, orderId: order.publicId }
    if (order.status === 'success') {
      if (order.feeStatus === 'failed' || order.feeStatus === 'requires_action') {
        return {
          template: 'fee_declined',
          dedupeKey: `order:${order.id}:fee-declined:${order.feeAttempts}`,
          message: templates.feeDeclined({
            ...base,
            amountCents: order.priceCents,
            reason: 'Your card was declined.',
          }),
        }
      }
      return {
        template: 'order_secured',
        dedupeKey: `order:${order.id}:secured`,
        message: templates.orderSecured({
          ...base,
          size: order.size,
          style: order.style,
          confirmationNumber: order.confirmationNumber,
          feeCents: order.feeStatus === 'paid' ? order.priceCents : 0,
        }),
      }
    }
    if (order.status === 'fail') {
      return {
        template: 'order_failed',
        dedupeKey: `order:${order.id}:failed`,
        message: templates.orderFailed({ ...base, reason: order.failReason }),
      }
    }
    if (order.status === 'pending' || order.status === 'processing') {
      return {
        template: 'order_received',
        dedupeKey: `order:${order.id}:received`,
        message: templates.orderReceived({
          ...base,
          size: order.size,
          style: order.style,
          priceCents: order.priceCents,
          holdCents: order.holdAmountCents,
        }),
      }
    }
    if (order.status === 'cancelled' && order.holdStatus === 'declined') {
      return {
        template: 'hold_declined',
        dedupeKey: `order:${order.id}:hold-declined`,
        message: templates.holdDeclined({ ...base, reason: 'Your card was declined.' }),
      }
    }
    return null
  }

  /**
   * Sends the outcome e-mail of a finished order once (success with the fee settled, or fail).
   * A declined fee is mailed by the payment service, once per attempt. Returns true if a message
   * was written now.
   */
  async sendOutcome(order: Order): Promise<boolean> {
    const settledSuccess =
      order.status === 'success' && (order.feeStatus === 'paid' || order.feeStatus === 'waived')
    if (!settledSuccess && order.status !== 'fail') return false
    const rendered = this.current(order)
    if (!rendered) return false
    const sent = await notifications.send({
      to: order.email,
      template: rendered.template,
      message: rendered.message,
      userId: order.userId,
      orderId: order.id,
      dedupeKey: rendered.dedupeKey,
    })
    return sent !== null
  }

  /** Sends the order's current-status message again, marked as a resend (never de-duplicated). */
  async resend(order: Order) {
    const rendered = this.current(order)
    if (!rendered) {
      throw AppError.conflict('This order has no e-mail to resend.', 'nothing_to_resend')
    }
    const message = await notifications.send({
      to: order.email,
      template: rendered.template,
      message: markAsResend(rendered.message),
      userId: order.userId,
      orderId: order.id,
    })
    return { orderId: order.publicId, template: rendered.template, messageId: message!.id }
  }

  /** Bulk resend (the spec's resendAll): each order's current message; orders without one are skipped. */
  async resendMany(orders: Order[], onItem?: () => void) {
    const sent: { orderId: string; template: string; messageId: number }[] = []
    let skipped = 0
    for (const order of orders) {
      if (this.current(order)) sent.push(await this.resend(order))
      else skipped++
      onItem?.()
    }
    return { sent: sent.length, skipped, messages: sent }
  }
}

export const orderEmails = new OrderEmails()
