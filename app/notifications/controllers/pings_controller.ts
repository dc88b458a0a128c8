import type { HttpContext } from '@adonisjs/core/http'
import { pingChannels } from '#notifications/services/ping_channels'
import { pingDelivery } from '#notifications/services/ping_delivery'
import {
  discordWebhookValidator,
  pushEndpointValidator,
  pushSubscriptionValidator,
} from '#notifications/validators/ping_validators'
import { consumeAttempt } from '#core/services/rate_limits'

/** The customer's release-day pings: web push subscriptions and their own Discord webhook. */
export default class PingsController {
  /** GET /api/user/pings */
  async show({ auth }: HttpContext) {
    return pingChannels.overview(auth.getUserOrFail().id)
  }

  /** POST /api/user/pings/push {endpoint, keys: {p256dh, auth}}: a browser turned them on. */
  async subscribe({ auth, request, response }: HttpContext) {
    const { endpoint, keys } = await request.validateUsing(pushSubscriptionValidator)
    const overview = await pingChannels.subscribe(auth.getUserOrFail().id, { endpoint, ...keys })
    return response.created(overview)
  }

  /** POST /api/user/pings/push/delete {endpoint}: a browser turned them off. */
  async unsubscribe({ auth, request }: HttpContext) {
    const { endpoint } = await request.validateUsing(pushEndpointValidator)
    return pingChannels.unsubscribe(auth.getUserOrFail().id, endpoint)
  }

  /** PUT /api/user/pings/discord {url} */
  async setDiscord({ auth, request }: HttpContext) {
    const { url } = await request.validateUsing(discordWebhookValidator)
    return pingChannels.setDiscord(auth.getUserOrFail().id, url)
  }

  /** DELETE /api/user/pings/discord */
  async clearDiscord({ auth }: HttpContext) {
    return pingChannels.clearDiscord(auth.getUserOrFail().id)
  }

  /** POST /api/user/pings/test: one test ping to every channel now (5 an hour). */
  async test({ auth }: HttpContext) {
    const user = auth.getUserOrFail()
    await consumeAttempt('pings-test', { userId: user.id }, { requests: 5, duration: '1 hour' })
    return pingDelivery.test(user.id)
  }
}
