import { defineConfig } from '@adonisjs/redis'
import type { InferConnections } from '@adonisjs/redis/types'
import queueConfig from '#config/queue'

/*
| Redis is optional: it is used for the rate-limit store, the locks (and jobs) only when REDIS_URL
| is set. Connections are opened lazily, so an unset REDIS_URL never tries to connect.
*/
const redisConfig = defineConfig({
  connection: 'main',
  connections: {
    main: {
      ...redisConnectionOptions(queueConfig.redisUrl, queueConfig.prefix),
      lazyConnect: true,
      maxRetriesPerRequest: 2,
      retryStrategy(times) {
        return times > 10 ? null : times * 50
      },
    },
  },
})

/**
 * Every key this installation writes through the connection (the release lock, the orders' money
 * locks, rate limits, the gateway's shared budgets) starts with its prefix: QUEUE_PREFIX, which
 * already namespaces its queues, or `?prefix=` in the URL. Installations sharing one Redis never
 * hold each other's locks: without it, one installation's release run was skipped as "locked"
 * while another held its own.
 */
export function redisConnectionOptions(url: string, installPrefix: string) {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    keyPrefix: parsed.searchParams.get('prefix') ?? `${installPrefix}:`,
  }
}

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
