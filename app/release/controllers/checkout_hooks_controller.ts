import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { checkoutHooks } from '#release/services/checkout_hooks'

export default class CheckoutHooksController {
  /** POST /api/hooks/checkout-results: a bot reports results (HMAC-verified over the raw body). */
  async store({ request }: HttpContext) {
    const raw = request.raw()
    if (!raw) throw AppError.badRequest('Empty body.', 'invalid_body')
    return checkoutHooks.receive(raw, request.header('x-dropslot-signature'))
  }
}
