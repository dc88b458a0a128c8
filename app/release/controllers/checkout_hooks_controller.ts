import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { checkoutHooks } from '#release/services/checkout_hooks'

export default class CheckoutHooksController {
  /**
   * POST /api/hooks/checkout-results: a bot reports results (HMAC-verified over the raw body).
   * 200 with the answer per result; 202 when workers apply them (QUEUE_DRIVER=bullmq).
   */
  async store({ request, response }: HttpContext) {
    const raw = request.raw()
    if (!raw) throw AppError.badRequest('Empty body.', 'invalid_body')
    const answer = await checkoutHooks.receive(raw, request.header('x-dropslot-signature'))
    return response.status('queued' in answer ? 202 : 200).json(answer)
  }
}
