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
      retryStrategy: reconnectDelay,
    },
  },
})

/**
 * How long the connection waits before its next reconnection attempt, however many failed: it
 * never gives up. A connection that gave up would stay closed until the process restarts, and
 * the lock store keeps the connection it was given at start, so after a Redis outage of a few
 * seconds every money action and release run of the process would fail with "Connection is
 * closed". Commands meanwhile fail fast (`maxRetriesPerRequest`), and work again once Redis is
 * back.
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 50, 2000)
}

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
