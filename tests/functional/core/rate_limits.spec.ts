import { test } from '@japa/runner'
import limiter from '@adonisjs/limiter/services/main'

test.group('Rate limits', () => {
  test('{route} answers 429 with the envelope once the limit is spent')
    .with([
      {
        route: '/login',
        limit: 10,
        body: () => ({ email: 'victim@example.test', password: 'guess-guess' }),
      },
      {
        route: '/register',
        limit: 20,
        body: (n: number) => ({ email: `r${n}@example.test`, password: 'short' }),
      },
      { route: '/api/forgotpw', limit: 5, body: () => ({ email: 'victim@example.test' }) },
    ])
    .run(async ({ client, assert }, row) => {
      let limited: any = null
      for (let attempt = 0; attempt < row.limit + 1; attempt++) {
        const response = await client.post(row.route).json(row.body(attempt))
        if (response.status() === 429) {
          limited = response
          break
        }
      }
      assert.isNotNull(limited, `${row.route} never answered 429`)
      assert.equal(limited.body().success, false)
      assert.equal(limited.body().code, 'too_many_requests')
      assert.match(limited.body().error, /Too many attempts/)
      assert.isAbove(Number(limited.header('retry-after')), 0)
    })

  test('the limit is per e-mail too: another IP cannot keep guessing one account', async ({
    client,
  }) => {
    for (let attempt = 0; attempt < 10; attempt++) {
      await client
        .post('/login')
        .header('x-forwarded-for', `10.0.0.${attempt}`)
        .json({ email: 'target@example.test', password: 'guess-guess' })
    }
    const response = await client
      .post('/login')
      .json({ email: 'Target@Example.test', password: 'x' })
    response.assertStatus(429)
  })

  test('the Redis store counts attempts in Redis', async ({ assert }) => {
    const store = limiter.use('redis', { requests: 2, duration: '1 minute' })
    const key = `test:${Date.now()}:${Math.random()}`
    await store.consume(key)
    await store.consume(key)
    await assert.rejects(() => store.consume(key))
    await store.delete(key)
  })
})
