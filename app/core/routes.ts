import router from '@adonisjs/core/services/router'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { middleware } from '#start/kernel'
import { AppError } from '#core/exceptions/app_error'

const HealthController = () => import('#core/controllers/health_controller')
const PublicConfigController = () => import('#core/controllers/public_config_controller')
const MetricsController = () => import('#core/controllers/metrics_controller')
const EventStreamController = () => import('@adonisjs/transmit/controllers/event_stream_controller')
const SubscribeController = () => import('@adonisjs/transmit/controllers/subscribe_controller')
const UnsubscribeController = () => import('@adonisjs/transmit/controllers/unsubscribe_controller')

router.get('/health', [HealthController, 'show']).as('core.health')
router.get('/api/config', [PublicConfigController, 'show']).as('core.publicConfig')
// Prometheus's scrape of this process (off without METRICS_TOKEN; docs/operations.md).
router.get('/metrics', [MetricsController, 'show']).as('core.metrics')

const CLIENT_ID = /^[A-Za-z0-9-]{1,64}$/

/** The client id (and, to subscribe or leave, the channel) as strings, or a 400. */
function wellFormed(needsChannel: boolean) {
  return ({ request }: HttpContext, next: NextFn) => {
    const uid = request.input('uid')
    const channel = request.input('channel')
    if (typeof uid !== 'string' || !CLIENT_ID.test(uid)) {
      throw AppError.badRequest('A client id (uid) is required.', 'invalid_uid')
    }
    if (needsChannel && (typeof channel !== 'string' || channel.length > 200)) {
      throw AppError.badRequest('A channel is required.', 'invalid_channel')
    }
    return next()
  }
}

/*
| Live updates: @adonisjs/transmit's own controllers on its paths (what `transmit.registerRoutes`
| adds, registered here so they precede the storefront's catch-all). The stream is opened by an
| EventSource, which cannot send a bearer token: it carries nothing until its random client id
| subscribes to a channel, which needs the customer's token and the channel's consent
| (start/transmit.ts).
*/
router.get('/__transmit/events', [EventStreamController]).use(wellFormed(false))
router
  .post('/__transmit/subscribe', [SubscribeController])
  .use([middleware.auth(), wellFormed(true)])
router
  .post('/__transmit/unsubscribe', [UnsubscribeController])
  .use([middleware.auth(), wellFormed(true)])
