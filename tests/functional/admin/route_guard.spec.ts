import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import testUtils from '@adonisjs/core/services/test_utils'
import { customerWithToken } from '#tests/helpers'

type RouteInfo = {
  pattern: string
  methods: string[]
  matchers: Record<string, { match?: RegExp }>
}

/** Every route the router really serves under /api/admin, read from its committed table. */
function adminRoutes(): RouteInfo[] {
  const domains = router.toJSON() as Record<string, RouteInfo[]>
  return Object.values(domains)
    .flat()
    .filter((route) => route.pattern === '/api/admin' || route.pattern.startsWith('/api/admin/'))
}

/** A URL that reaches the route: each param gets a value its matcher accepts. */
function sampleUrl(route: RouteInfo): string {
  return route.pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return 'anything'
      if (!segment.startsWith(':')) return segment
      const name = segment.replace(/^:/, '').replace(/\?$/, '')
      const matcher = route.matchers[name]?.match
      const candidate = ['1', randomUUID(), 'sample'].find(
        (value) => !matcher || matcher.test(value)
      )
      return candidate ?? '1'
    })
    .join('/')
}

test.group('Admin routes are guarded', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the router has the admin routes this branch builds', ({ assert }) => {
    const patterns = adminRoutes().map((route) => `${route.methods.join(',')} ${route.pattern}`)
    // A sanity floor so the guard test below can never pass on an empty list.
    assert.isAtLeast(patterns.length, 20)
    for (const expected of [
      'GET,HEAD /api/admin/products',
      'POST /api/admin/products/create',
      'POST /api/admin/products/edit',
      'DELETE /api/admin/products/id/:id',
      'GET,HEAD /api/admin/orders',
      'POST /api/admin/orders/create',
      'DELETE /api/admin/orders/id/:id',
      'POST /api/admin/orders',
      'POST /api/admin/orders/:id/mark',
      'DELETE /api/admin/orders/:id',
    ]) {
      assert.include(patterns, expected)
    }
  })

  test('every /api/admin route answers 401 to anonymous callers and 403 to customers', async ({
    client,
    assert,
  }) => {
    const { token } = await customerWithToken()
    const checked: string[] = []
    for (const route of adminRoutes()) {
      const url = sampleUrl(route)
      for (const method of route.methods) {
        const verb = method.toLowerCase() as 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete'
        const anonymous = await client[verb](url)
        assert.equal(anonymous.status(), 401, `${method} ${url} must be 401 for anonymous callers`)
        const customer = await client[verb](url).bearerToken(token)
        assert.equal(customer.status(), 403, `${method} ${url} must be 403 for customers`)
        if (method !== 'HEAD') {
          assert.equal(customer.body().code, 'forbidden')
          assert.equal(anonymous.body().code, 'unauthorized')
        }
        checked.push(`${method} ${url}`)
      }
    }
    assert.isAtLeast(checked.length, 20)
  })

  test('an expired or made-up token is anonymous', async ({ client }) => {
    const response = await client.get('/api/admin/products').bearerToken('oat_bm90LWEtdG9rZW4')
    response.assertStatus(401)
  })
})
