import limiter from '@adonisjs/limiter/services/main'

/**
 * Fresh rate-limit counters for a test. Only the memory store: the Redis store's `clear()` is a
 * FLUSHDB, which empties the whole Redis database, every other installation's queues and locks
 * with it (CI's two suites share one Redis, and a job dispatched by one vanished that way).
 */
export function clearRateLimits() {
  return limiter.clear(['memory'])
}
