import { connect, createServer } from 'node:net'
import env from '#start/env'

/**
 * The Redis of the tests' own queues, workers and spawned processes. TEST_REDIS_URL gives a run
 * a Redis database of its own (CI runs two suites at once) without turning the suite's rate
 * limits and locks over to Redis, as REDIS_URL would.
 */
export const TEST_REDIS_URL =
  process.env.TEST_REDIS_URL || env.get('REDIS_URL', 'redis://127.0.0.1:6379')

/**
 * Whether the tests that need Redis (BullMQ, shared budgets) run: always in CI (where Redis is
 * started), elsewhere when Redis answers on its port, so `npm test` with only Node skips them.
 */
export async function redisTestsRun() {
  if (process.env.CI) return true
  const { hostname, port } = new URL(TEST_REDIS_URL)
  return new Promise<boolean>((resolve) => {
    const socket = connect(Number(port || 6379), hostname)
    socket.setTimeout(500)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => resolve(false))
  })
}

/** A Redis URL nothing answers at (a port taken from the system, then let go). */
export async function unreachableRedisUrl(credentials = '') {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return `redis://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}`
}
