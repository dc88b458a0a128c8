import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { GatewayUnavailableError, WebhookSignatureError } from '#payments/gateways/payment_gateway'
import { webhookService } from '#payments/services/webhook_service'

export default class WebhooksController {
  /** POST /api/hooks/stripe: verified over the raw body, de-duplicated by event id. */
  async stripe({ request }: HttpContext) {
    const raw = request.raw()
    if (!raw) throw AppError.badRequest('Empty webhook body.', 'invalid_webhook')
    try {
      const result = await webhookService.receive(raw, request.header('stripe-signature'))
      return { received: true, ...result }
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        throw AppError.badRequest(error.message, 'invalid_signature')
      }
      // The event could not be checked with the gateway: the provider delivers it again later.
      if (error instanceof GatewayUnavailableError) {
        throw new AppError('The payment provider could not be reached. Try again later.', {
          status: 503,
          code: 'payment_provider_unavailable',
        })
      }
      throw error
    }
  }
}
