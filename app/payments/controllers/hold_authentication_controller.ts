import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { paymentService } from '#payments/services/payment_service'

const NOT_WAITING = 'This card check does not need your confirmation.'
const ORDER_CANCELLED =
  'This order was cancelled, so its $1.00 card check was cancelled at your bank too. There is nothing to confirm.'
const ORDER_ENDED =
  'This order has ended, so its $1.00 card check is no longer needed. There is nothing to confirm.'
const HOLD_AUTHENTICATION_FAILED =
  'Your bank did not confirm the $1.00 card check. Please try again.'

/**
 * The customer's side of a $1.00 card check the bank held back for 3-D Secure: the challenge to
 * go through, then the outcome. Only the order's own customer may see or confirm it.
 */
export default class HoldAuthenticationController {
  /** POST /api/user/orders/:orderId/hold/authenticate */
  async authenticate({ bouncer, params }: HttpContext) {
    const order = await this.ownOrder(bouncer, params.orderId)
    this.refuseClosed(order)
    const action = await paymentService.holdAction(order)
    if (!action) throw AppError.conflict(NOT_WAITING, 'hold_not_waiting')
    return {
      success: true,
      authentication: {
        paymentId: action.paymentId,
        challengeUrl: action.challengeUrl,
        clientSecret: action.clientSecret,
        paymentMethodId: action.paymentMethodId,
      },
    }
  }

  /** POST /api/user/orders/:orderId/hold/confirm: placed (200), still waiting (202), refused (402). */
  async confirm({ bouncer, params, response }: HttpContext) {
    const order = await this.ownOrder(bouncer, params.orderId)
    this.refuseClosed(order)
    if (order.holdStatus !== 'requires_action' && order.holdStatus !== 'placed') {
      throw AppError.conflict(NOT_WAITING, 'hold_not_waiting')
    }
    const outcome = await paymentService.confirmHoldAuthentication(order)
    if (outcome.status === 'order_closed') {
      // It ended between the two reads (a cancel at the same moment).
      this.refuseClosed(await orderQueries.findById(order.id))
      throw AppError.conflict(ORDER_ENDED, 'order_closed')
    }
    if (outcome.status === 'placed') return { success: true, hold: { status: 'placed' } }
    if (outcome.status === 'authentication_failed') {
      throw new AppError(HOLD_AUTHENTICATION_FAILED, {
        status: 402,
        code: 'hold_authentication_failed',
      })
    }
    if (outcome.status === 'declined') {
      throw new AppError(outcome.message, { status: 402, code: 'card_declined' })
    }
    return response.status(202).json({
      success: false,
      code: 'hold_authentication_required',
      message: 'Your bank is still waiting for you to confirm the card check.',
    })
  }

  /** 409 `order_closed` for an order that ended: its waiting card check went with it. */
  private refuseClosed(order: OrderRecord) {
    if (order.status === 'pending' || order.status === 'entered') return
    throw AppError.conflict(
      order.status === 'cancelled' ? ORDER_CANCELLED : ORDER_ENDED,
      'order_closed'
    )
  }

  /** Another customer's order is answered as one that does not exist. */
  private async ownOrder(bouncer: HttpContext['bouncer'], publicId: unknown) {
    const order = await orderQueries.findByPublicId(publicId)
    if (await bouncer.with('OrderPolicy').denies('manage', order)) {
      throw AppError.notFound('Order not found.', 'order_not_found')
    }
    return order
  }
}
