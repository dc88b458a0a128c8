import env from '#start/env'
import { defineConfig } from '@adonisjs/redis'
import type { InferConnections } from '@adonisjs/redis/types'

/*
| Redis is optional: it is used for the rate-limit store (and jobs) only when REDIS_URL is set.
| Connections are opened lazily, so an unset REDIS_URL never tries to connect.
*/
const redisConfig = defineConfig({
  connection: 'main',
  connections: {
    main: {
      ...(env.get('REDIS_URL')
        ? parseRedisUrl(env.get('REDIS_URL')!)
        : { host: '127.0.0.1', port: 6379 }),
      lazyConnect: true,
      maxRetriesPerRequest: 2,
      retryStrategy(times) {
        return times > 10 ? null : times * 50
      },
    },
  },
})

export function parseRedisUrl(url: string) {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    keyPrefix: parsed.searchParams.get('prefix') ?? undefined,
  }
}

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
