import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import limiter from '@adonisjs/limiter/services/main'
import { customerWithToken, envelope, TEST_CARDS } from '#tests/helpers'
import { trustedProxies } from '#config/app'
import { request } from 'node:http'
import env from '#start/env'
import { Redis } from 'ioredis'
import queueConfig from '#config/queue'
import { redisTestsRun } from '#tests/support/redis'
import { clearRateLimits } from '#tests/support/rate_limits'

const runRedis = await redisTestsRun()

/** A JSON POST to the test server from a given loopback address (127.0.0.0/8 is all local). */
function postFrom(address: string, path: string, body: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = JSON.stringify(body)
    const outgoing = request(
      {
        host: env.get('HOST'),
        port: env.get('PORT'),
        path,
        method: 'POST',
        localAddress: address,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
      }
    )
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

test.group('Rate limits', (group) => {
  // Sign-ups and cards these tests make are theirs alone: rolled back after each.
  group.each.setup(() => testUtils.db().withGlobalTransaction())
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
    assert,
  }) => {
    // Each guess comes from its own loopback address, so no per-IP limit is ever reached: only
    // the per-e-mail one can refuse the eleventh.
    for (let attempt = 0; attempt < 10; attempt++) {
      const guess = await postFrom(`127.0.0.${attempt + 2}`, '/login', {
        email: 'target@example.test',
        password: 'guess-guess',
      })
      assert.equal(guess.status, 400, `guess ${attempt + 1}: ${guess.body}`)
    }
    const refused = await postFrom('127.0.0.20', '/login', {
      email: 'Target@Example.test',
      password: 'x',
    })
    assert.equal(refused.status, 429)
    assert.equal(JSON.parse(refused.body).code, 'too_many_requests')
    // The same new address may still try another account.
    const other = await postFrom('127.0.0.21', '/login', {
      email: 'someone-else@example.test',
      password: 'x',
    })
    assert.equal(other.status, 400)
  })

  test('{name} has its own limit, refused in plain words')
    .with([
      {
        name: 'the promo lookup',
        limit: 20,
        send: (client: any) => client.get('/api/promoLookup').qs({ promoCode: 'GUESS' }),
        words: /^Too many promo code lookups\. Please wait .+ and try again\.$/,
      },
      {
        name: 'a reset-token guess',
        limit: 10,
        send: (client: any) =>
          client.post('/api/resetpassword').json({
            hash: 'a'.repeat(64),
            password: 'new-password',
            confirmPassword: 'new-password',
          }),
        words: /^Too many reset attempts\. Please wait .+ and try again\.$/,
      },
      {
        name: 'a newsletter sign-up',
        limit: 5,
        send: (client: any, n: number) =>
          client.get('/api/addEmail').qs({ email: `n${n}@example.test` }),
        words: /^Too many sign-ups\. Please wait .+ and try again\.$/,
      },
    ])
    .run(async ({ client, assert }, row) => {
      for (let attempt = 0; attempt < row.limit; attempt++) {
        const response = await row.send(client, attempt)
        assert.notEqual(response.status(), 429, `refused early, at attempt ${attempt + 1}`)
      }
      const refused = await row.send(client, row.limit)
      refused.assertStatus(429)
      assert.match(refused.body().error, row.words)
      assert.isAbove(Number(refused.header('retry-after')), 0)
    })

  test('card attempts are limited per customer: declined cards cannot be tested one by one', async ({
    client,
    assert,
  }) => {
    const { token } = await customerWithToken()
    const statuses: number[] = []
    let refused: any = null
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await client
        .post('/api/user/billing/genToken')
        .bearerToken(token)
        .json({
          encrypted: envelope({
            number: TEST_CARDS.declinedAtSave,
            exp_month: 12,
            exp_year: new Date().getFullYear() + 2,
            cvc: '123',
            name: 'Card Tester',
          }),
        })
      statuses.push(response.status())
      if (response.status() === 429) refused = response
    }
    assert.equal(statuses.filter((status) => status === 429).length, 1)
    assert.equal(statuses.at(-1), 429)
    assert.match(
      refused.body().error,
      /^Too many card attempts\. Please wait \d+ minutes and try again\.$/
    )
  })

  test('forwarded addresses count only from configured proxies, never from anyone', ({
    assert,
  }) => {
    const none = trustedProxies(undefined)
    assert.isFalse(none('127.0.0.1', 0))
    assert.isFalse(none('203.0.113.9', 0))
    const proxies = trustedProxies('127.0.0.1, 10.0.0.0/8')
    assert.isTrue(proxies('127.0.0.1', 0))
    assert.isTrue(proxies('10.1.2.3', 0))
    assert.isFalse(proxies('203.0.113.9', 0))
  })

  test('the Redis store counts attempts in Redis', async ({ assert }) => {
    const store = limiter.use('redis', { requests: 2, duration: '1 minute' })
    const key = `test:${Date.now()}:${Math.random()}`
    await store.consume(key)
    await store.consume(key)
    await assert.rejects(() => store.consume(key))
    await store.delete(key)
  }).skip(!runRedis, 'Redis is not running here (CI runs it)')

  test('fresh counters between tests leave the rest of a shared Redis alone', async ({
    assert,
  }) => {
    // Another installation's queued job, in the Redis this process's limiter store writes to.
    const other = new Redis(queueConfig.redisUrl)
    const foreignKey = `another-installation-${process.pid}:gateway:1`
    try {
      await other.set(foreignKey, 'a queued hold job')
      await limiter
        .use('redis', { requests: 2, duration: '1 minute' })
        .consume(`test:${Date.now()}`)

      await clearRateLimits()

      assert.equal(await other.get(foreignKey), 'a queued hold job')
    } finally {
      await other.del(foreignKey)
      await other.quit()
    }
  }).skip(!runRedis, 'Redis is not running here (CI runs it)')
})
