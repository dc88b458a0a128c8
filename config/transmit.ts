import env from '#start/env'
import { defineConfig } from '@adonisjs/transmit'
import queueConfig from '#config/queue'
import { redisConnectionOptions } from '#config/redis'
import { LiveUpdatesTransport } from '#core/services/live_updates_transport'

/*
| Live updates to the storefront (server-sent events on /__transmit/events). Without REDIS_URL
| the broadcasts stay in this process: the embedded install runs its jobs here, so every change
| happens where its customer is connected. With REDIS_URL they go through Redis pub/sub, so a
| change made on a worker (QUEUE_DRIVER=bullmq) reaches the web process holding the customer's
| stream. Pub/sub channels ignore key prefixes, so the channel carries QUEUE_PREFIX instead.
*/
const redisUrl = env.get('REDIS_URL')

export default defineConfig({
  // A ping every 30 s keeps proxies and load balancers from closing an idle stream.
  pingInterval: '30s',
  transport: redisUrl
    ? {
        driver: () =>
          new LiveUpdatesTransport(redisConnectionOptions(redisUrl, queueConfig.prefix)),
        channel: `${queueConfig.prefix}:transmit`,
      }
    : null,
})
