import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { LiveUpdatesTransport } from '#core/services/live_updates_transport'
import { redisConnectionOptions } from '#config/redis'
import { redisTestsRun, TEST_REDIS_URL, unreachableRedisUrl } from '#tests/support/redis'
import { waitFor } from '#tests/support/wait_for'

const transportAt = (url: string) =>
  new LiveUpdatesTransport(redisConnectionOptions(url, `live-${randomUUID()}`))

test.group('Live updates between processes (Redis pub/sub)', () => {
  test('a broadcast reaches the other process, never the one that sent it', async ({
    assert,
  }, skip) => {
    if (!(await redisTestsRun())) return skip('Redis is not running')
    const web = transportAt(TEST_REDIS_URL).setId('web')
    const worker = transportAt(TEST_REDIS_URL).setId('worker')
    const channel = `live-${randomUUID()}`
    const received: unknown[] = []
    try {
      await web.subscribe(channel, (payload) => {
        received.push(payload)
      })
      // The subscription is made once the connection is up: sent until it arrives.
      await waitFor(
        async () => {
          await worker.publish(channel, { order: 'DS-1', status: 'processing' })
          return received.length > 0
        },
        { what: 'the first broadcast' }
      )
      await web.publish(channel, { order: 'DS-2', status: 'own' })
      await worker.publish(channel, { order: 'DS-3', status: 'success' })
      await waitFor(() => received.some((item: any) => item.order === 'DS-3'))
      assert.deepInclude(received, { order: 'DS-1', status: 'processing' })
      assert.notDeepInclude(received, { order: 'DS-2', status: 'own' })
    } finally {
      await Promise.all([web.disconnect(), worker.disconnect()])
    }
  }).timeout(20_000)

  test('with Redis down, subscribing waits, a broadcast fails for the bus to keep, and closing does not wait', async ({
    assert,
  }) => {
    const transport = transportAt(await unreachableRedisUrl()).setId('web')
    await transport.subscribe('live-down', () => {})
    await assert.rejects(() => transport.publish('live-down', { order: 'DS-4' }))
    await transport.disconnect()
  })
})
