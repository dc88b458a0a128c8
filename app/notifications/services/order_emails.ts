import { retailerName } from '#shared/vocabulary'
import type { DateTime } from 'luxon'
import dropslotConfig from '#config/dropslot'
import type { OrderRecord } from '#orders/services/order_queries'
import { notifications, type PingMessage } from '#notifications/services/notification_service'
import { pingFor } from '#notifications/services/order_pings'
import { templates, markAsResend, type RenderedEmail } from '#notifications/templates'
import { AppError } from '#core/exceptions/app_error'
import { customerReason } from '#orders/services/failure_reasons'
import { orderNumber } from '#orders/services/order_numbers'
import type { DriverSession } from '#core/services/driver_session'
import { checkAfterFailure, isFeeDue, notSecuredWords } from '#shared/vocabulary'
import { emailKeys } from '#notifications/services/email_keys'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'

/** What the receipt of a new order needs (the checkout has it before the order is a model). */
export type NewOrderReceipt = Pick<
  OrderRecord,
  | 'id'
  | 'publicId'
  | 'email'
  | 'userId'
  | 'productTitle'
  | 'size'
  | 'style'
  | 'priceCents'
  | 'holdAmountCents'
  | 'sizeLadder'
  | 'retailerChoice'
  | 'maxItemPriceCents'
>

/** The slot's choices, as `presentOrder` gives them to the customer. */
function choicesOf(
  order: Pick<NewOrderReceipt, 'size' | 'sizeLadder' | 'retailerChoice' | 'maxItemPriceCents'>
) {
  const { retailerChoice, maxItemPriceCents } = slotChoiceColumns.read(order)
  return { sizes: slotChoiceColumns.ladderOf(order), retailers: retailerChoice, maxItemPriceCents }
}

type Rendered = { template: string; message: RenderedEmail; dedupeKey: string }

/** A failed order's words, as its orders page shows them (`presentOrder`). */
const notSecuredOf = (order: Pick<OrderRecord, 'failCode' | 'holdStatus'>) =>
  notSecuredWords(order.failCode, { check: checkAfterFailure(order.holdStatus) })

/**
 * The one composer of order e-mails: every message about an order (receipt, card check declined,
 * outcome, fee declined, refund, waiver, retry, correction) is built and recorded here.
 * Automatic sends are once per order and kind (a dedupe key in the outbox), so a release run
 * repeated after a crash never mails twice; a resend (admin, CLI) is a new, clearly marked outbox
 * row for the order's current-status message.
 */
export class OrderEmails {
  /** The message that describes the order as it is now, or null when there is none to send. */
  current(order: OrderRecord): Rendered | null {
    const base = { productTitle: order.productTitle, orderId: orderNumber(order.id) }
    if (order.status === 'success') {
      if (isFeeDue(order)) {
        return {
          template: 'fee_declined',
          dedupeKey: emailKeys.feeDeclined(order, order.feeAttempts),
          message: templates.feeDeclined({
            ...base,
            amountCents: order.priceCents,
            reason: 'Your card was declined.',
          }),
        }
      }
      return {
        template: 'order_secured',
        dedupeKey: emailKeys.orderRound(order, 'secured'),
        message: templates.orderSecured({
          ...base,
          size: order.securedSize ?? order.size,
          style: order.style,
          retailer: order.securedRetailer ? retailerName(order.securedRetailer) : null,
          confirmationNumber: order.confirmationNumber,
          feeCents: order.feeStatus === 'paid' ? order.priceCents : 0,
        }),
      }
    }
    if (order.status === 'fail') {
      return {
        template: 'order_failed',
        dedupeKey: emailKeys.orderRound(order, 'failed'),
        // The customer's words, from the failure's category; the engine's text is for admins.
        message: templates.orderFailed({
          ...base,
          reason: customerReason(order.failCode),
          notSecured: notSecuredOf(order),
        }),
      }
    }
    if (order.status === 'pending' || order.status === 'processing') {
      return {
        template: 'order_received',
        dedupeKey: emailKeys.orderRound(order, 'received'),
        message: templates.orderReceived({
          ...base,
          size: order.size,
          style: order.style,
          priceCents: order.priceCents,
          holdCents: order.holdAmountCents,
          ...choicesOf(order),
        }),
      }
    }
    if (order.status === 'retailer_cancelled') {
      return {
        template: 'retailer_cancelled',
        dedupeKey: emailKeys.retailerCancelled(order),
        message: templates.retailerCancelled({ ...base, refundedCents: order.refundedCents }),
      }
    }
    if (order.status === 'cancelled' && order.holdStatus === 'declined') {
      return {
        template: 'hold_declined',
        dedupeKey: emailKeys.holdDeclined(order),
        message: templates.holdDeclined({ ...base, reason: 'Your card was declined.' }),
      }
    }
    return null
  }

  /**
   * The receipt of a new order, recorded in the checkout's own transaction (`session`), so an
   * order never exists without it. Returns the outbox row to deliver after the commit.
   */
  async sendReceipt(order: NewOrderReceipt, session?: DriverSession) {
    return notifications.send(
      {
        to: order.email,
        template: 'order_received',
        message: templates.orderReceived({
          productTitle: order.productTitle,
          orderId: orderNumber(order.id),
          size: order.size,
          style: order.style,
          priceCents: order.priceCents,
          holdCents: order.holdAmountCents,
          ...choicesOf(order),
        }),
        userId: order.userId,
        orderId: order.id,
        dedupeKey: emailKeys.receipt(order),
      },
      session
    )
  }

  /** A draw entry was taken: written in the entry's own transaction, like a receipt. */
  async sendDrawEntered(
    order: NewOrderReceipt,
    entry: {
      entryId: string
      closesAt: string
      commitment: string
      round: number
      proofUrl: string
    },
    session?: DriverSession
  ) {
    return notifications.send(
      {
        to: order.email,
        template: 'draw_entered',
        message: templates.drawEntered({
          productTitle: order.productTitle,
          orderId: orderNumber(order.id),
          entryId: entry.entryId,
          closesAt: entry.closesAt,
          holdCents: order.holdAmountCents,
          commitment: entry.commitment,
          round: entry.round,
          proofUrl: entry.proofUrl,
          ...choicesOf(order),
        }),
        userId: order.userId,
        orderId: order.id,
        dedupeKey: emailKeys.drawEntered(order),
      },
      session
    )
  }

  /** The draw's result for one entry: once per order. */
  async sendDrawResult(order: OrderRecord, entryId: string, won: boolean) {
    const details = { productTitle: order.productTitle, orderId: orderNumber(order.id), entryId }
    const ping: PingMessage = won
      ? {
          title: `You won the draw: ${order.productTitle}`,
          body: `Entry ${entryId} was selected: order ${orderNumber(order.id)} goes to release day.`,
          url: `/product/${order.productId}/draw`,
          tag: `order-${order.publicId}`,
        }
      : {
          title: `Not selected: ${order.productTitle}`,
          body: `Entry ${entryId} was not selected this time. Your $1.00 check is released; nothing is charged.`,
          url: `/product/${order.productId}/draw`,
          tag: `order-${order.publicId}`,
        }
    return won
      ? this.sendOnce(order, 'draw_won', emailKeys.drawWon(order), templates.drawWon(details), ping)
      : this.sendOnce(
          order,
          'draw_not_selected',
          emailKeys.drawNotSelected(order),
          templates.drawNotSelected(details),
          ping
        )
  }

  /** An alternate takes a winner's place (the winner's card check failed): once per order. */
  async sendDrawPromoted(order: OrderRecord, entryId: string) {
    return this.sendOnce(
      order,
      'draw_promoted',
      emailKeys.drawPromoted(order),
      templates.drawPromoted({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        entryId,
      })
    )
  }

  /** The $1.00 card check was declined and the order cancelled: once per order. */
  async sendHoldDeclined(order: OrderRecord, reason: string) {
    return this.sendOnce(
      order,
      'hold_declined',
      emailKeys.holdDeclined(order),
      templates.holdDeclined({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        reason,
      })
    )
  }

  /** The bank asks the customer to authenticate the $1.00 card check: once per order. */
  async sendHoldNeedsConfirmation(order: OrderRecord, confirmBy: DateTime) {
    const by = `${confirmBy.toUTC().toFormat("LLL d, HH:mm 'UTC'")}`
    return this.sendOnce(
      order,
      'hold_needs_confirmation',
      emailKeys.holdNeedsConfirmation(order),
      templates.holdNeedsConfirmation({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        confirmBy: by,
        ordersUrl: `${dropslotConfig.appUrl}/user/orders`,
      }),
      pingFor(order, 'hold_needs_confirmation', { confirmBy: by })
    )
  }

  /** The fee of a successful order was declined: once per attempt. */
  async sendFeeDeclined(order: OrderRecord, reason: string, attempt: number) {
    return this.sendOnce(
      order,
      'fee_declined',
      emailKeys.feeDeclined(order, attempt),
      templates.feeDeclined({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        amountCents: order.priceCents,
        reason,
      }),
      pingFor(order, 'fee_declined')
    )
  }

  /**
   * Sends the outcome e-mail of a finished order once (success with the fee settled, or fail).
   * A declined fee is mailed by the payment service, once per attempt. Returns true if a message
   * was written now.
   */
  async sendOutcome(order: OrderRecord): Promise<boolean> {
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
      ping: pingFor(
        order,
        rendered.template === 'order_secured'
          ? 'secured'
          : rendered.template === 'fee_declined'
            ? 'fee_declined'
            : 'failed'
      ),
    })
    return sent !== null
  }

  /** A fee that was charged is (partly) refunded: once per refund (its ledger key). */
  async sendRefund(order: OrderRecord, amountCents: number, refundKey: string) {
    return this.sendOnce(
      order,
      'fee_refunded',
      emailKeys.refund(refundKey),
      templates.feeRefunded({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        amountCents,
        totalRefundedCents: order.refundedCents,
        feeCents: order.priceCents,
      })
    )
  }

  /** A payment that landed after the order stopped owing it was refunded: once per refund. */
  async sendLatePaymentRefunded(order: OrderRecord, amountCents: number, refundKey: string) {
    return this.sendOnce(
      order,
      'late_payment_refunded',
      `${refundKey}:email`,
      templates.latePaymentRefunded({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        amountCents,
      })
    )
  }

  /** The retailer cancelled the order after confirming it; the fee comes back in full. */
  /** A retailer confirmed an order already won at another (`extra_success`): never a second fee. */
  async sendExtraSuccess(
    order: OrderRecord,
    extra: { retailer: string; size: string | null; confirmationNumber: string | null }
  ) {
    return this.sendOnce(
      order,
      'extra_success',
      emailKeys.extraSuccess(order, extra.retailer),
      templates.extraSuccess({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        wonAt: order.securedRetailer ? retailerName(order.securedRetailer) : null,
        retailer: retailerName(extra.retailer),
        size: extra.size,
        confirmationNumber: extra.confirmationNumber,
      })
    )
  }

  async sendRetailerCancelled(order: OrderRecord) {
    return this.sendOnce(
      order,
      'retailer_cancelled',
      emailKeys.retailerCancelled(order),
      templates.retailerCancelled({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        refundedCents: order.refundedCents,
      })
    )
  }

  /** A fee that was due is waived. */
  async sendWaived(order: OrderRecord) {
    return this.sendOnce(
      order,
      'fee_waived',
      emailKeys.feeWaived(order),
      templates.feeWaived({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        amountCents: order.priceCents,
      })
    )
  }

  /** A failed order is tried again (once per round). */
  async sendRetry(order: OrderRecord) {
    return this.sendOnce(
      order,
      'order_retried',
      emailKeys.orderRound(order, 'retried'),
      templates.orderRetried({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        holdCents: order.holdAmountCents,
      })
    )
  }

  /** A success corrected to fail, with what was refunded. */
  async sendCorrected(order: OrderRecord) {
    return this.sendOnce(
      order,
      'order_corrected',
      emailKeys.orderRound(order, 'corrected'),
      templates.orderCorrected({
        productTitle: order.productTitle,
        orderId: orderNumber(order.id),
        reason: customerReason(order.failCode),
        refundedCents: order.refundedCents,
        notSecured: notSecuredOf(order),
      })
    )
  }

  private async sendOnce(
    order: OrderRecord,
    template: string,
    dedupeKey: string,
    message: RenderedEmail,
    ping: PingMessage | null = null
  ) {
    const sent = await notifications.send({
      to: order.email,
      template,
      message,
      userId: order.userId,
      orderId: order.id,
      dedupeKey,
      ping,
    })
    return sent !== null
  }

  /** Sends the order's current-status message again, marked as a resend (never de-duplicated). */
  async resend(order: OrderRecord) {
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
  async resendMany(orders: OrderRecord[], onItem?: () => void) {
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
