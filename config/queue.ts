import env from '#start/env'

/*
| Background work. `database` (the default) needs nothing but the database: the tables hold the
| work and the web process runs the jobs in-process. `bullmq` (with REDIS_URL) runs them on
| BullMQ workers (`node ace queue:work`, `dropslot worker`) and the web processes only dispatch.
*/
const driver = env.get('QUEUE_DRIVER', 'database')
if (driver === 'bullmq' && !env.get('REDIS_URL')) {
  throw new Error('QUEUE_DRIVER=bullmq needs REDIS_URL (e.g. redis://127.0.0.1:6379).')
}

const queueConfig = {
  driver,
  redisUrl: env.get('REDIS_URL', 'redis://127.0.0.1:6379'),
  /** Namespaces every BullMQ key, so installations can share one Redis. */
  prefix: env.get('QUEUE_PREFIX', 'dropslot'),
  /** Jobs a worker runs at once per queue (`--concurrency` overrides it). */
  concurrency: env.get('QUEUE_CONCURRENCY', 5),
  /**
   * Gateway calls per second across the whole cluster (holds go through the `gateway` queue):
   * 20 is Stripe's test-mode budget, raise it to about 90 for live mode.
   */
  gatewayRatePerSecond: env.get('GATEWAY_RATE_PER_SECOND', 20),
  /**
   * BullMQ: how long a job's lock lasts without its worker renewing it, and how often workers
   * look for jobs whose lock lapsed. A killed worker's jobs are taken over between one and two
   * of these after it died.
   */
  stalledAfterMs: env.get('QUEUE_STALLED_AFTER_MS', 30_000),
}
if (queueConfig.stalledAfterMs < 1000) {
  throw new Error('QUEUE_STALLED_AFTER_MS must be at least 1000 (a second).')
}

export default queueConfig
