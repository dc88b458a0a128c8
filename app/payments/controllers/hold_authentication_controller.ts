import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { orderQueries } from '#orders/services/order_queries'
import { paymentService } from '#payments/services/payment_service'

const NOT_WAITING = 'This card check does not need your confirmation.'
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
    if (order.holdStatus !== 'requires_action' && order.holdStatus !== 'placed') {
      throw AppError.conflict(NOT_WAITING, 'hold_not_waiting')
    }
    const outcome = await paymentService.confirmHoldAuthentication(order)
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

  /** Another customer's order is answered as one that does not exist. */
  private async ownOrder(bouncer: HttpContext['bouncer'], publicId: unknown) {
    const order = await orderQueries.findByPublicId(publicId)
    if (await bouncer.with('OrderPolicy').denies('manage', order)) {
      throw AppError.notFound('Order not found.', 'order_not_found')
    }
    return order
  }
}
