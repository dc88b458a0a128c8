import { test } from '@japa/runner'
import env from '#start/env'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'

const withRedis = await redisTestsRun()

test.group('Health', () => {
  test('reports that the database answers, and the job queues', async ({ client, assert }) => {
    const response = await client.get('/health')
    response.assertStatus(200)
    response.assertBodyContains({ status: 'ok', database: 'ok' })
    assert.include(response.body().queues, { driver: 'database', status: 'ok' })
    assert.isNumber(response.body().queues.oldestWaitingSeconds)
    const checks = response.body().checks as { name: string; status: string }[]
    assert.deepInclude(checks, { name: 'Job queues', status: 'ok' })
    assert.isTrue(
      checks.some((check) => check.name.startsWith('Database') && check.status === 'ok')
    )
  })

  test('with Redis in use, a fresh process reports it reachable', async ({ client, assert }) => {
    const previous = env.get('REDIS_URL')
    env.set('REDIS_URL', TEST_REDIS_URL)
    try {
      const response = await client.get('/health')
      response.assertStatus(200)
      assert.equal(response.body().redis, 'ok')
    } finally {
      env.set('REDIS_URL', previous as string)
      if (previous === undefined) delete process.env.REDIS_URL
    }
  }).skip(!withRedis, 'Redis is not running on this machine')

  test('unknown API routes answer the JSON 404 envelope', async ({ client }) => {
    const response = await client.get('/api/does-not-exist')
    response.assertStatus(404)
    response.assertBodyContains({ success: false, code: 'not_found' })
  })

  test('non-API paths get the storefront page (history fallback)', async ({ client, assert }) => {
    const response = await client.get('/user/orders')
    response.assertStatus(200)
    assert.include(response.header('content-type'), 'text/html')
  })
})
