import { mkdir, rm, writeFile, stat } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import ShieldMiddleware from '@adonisjs/shield/shield_middleware'
import SecurityHeadersMiddleware from '#core/middleware/security_headers_middleware'
import { contentSecurityDirectives } from '#config/shield'

const base = () => `http://${process.env.HOST}:${process.env.PORT}`

/** The headers every answer carries, whatever served it. */
function assertSecurityHeaders(assert: any, response: Response, label: string) {
  const csp = response.headers.get('content-security-policy') ?? ''
  assert.include(csp, "default-src 'self'", label)
  assert.include(csp, "script-src 'self'", label)
  assert.include(csp, "frame-ancestors 'none'", label)
  assert.include(csp, "object-src 'none'", label)
  assert.notInclude(csp, "'unsafe-eval'", label)
  assert.notMatch(csp, /script-src[^;]*'unsafe-inline'/, label)
  assert.equal(response.headers.get('x-frame-options'), 'DENY', label)
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', label)
  assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', label)
  // Plain HTTP: no HSTS (it is only meaningful, and only sent, over HTTPS).
  assert.isNull(response.headers.get('strict-transport-security'), label)
}

test.group('Security headers', () => {
  test('pages, the console, the API and error answers all carry them', async ({ assert }) => {
    const cases: [string, RequestInit, number][] = [
      ['/', {}, 200],
      ['/shop', {}, 200],
      ['/admin/', {}, 200],
      ['/api/products', {}, 200],
      ['/api/config', {}, 200],
      ['/health', {}, 200],
      ['/api/no-such-endpoint', {}, 404],
      ['/images/missing.png', {}, 404],
      ['/api/user/orders', {}, 401],
      [
        '/login',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":' },
        400,
      ],
    ]
    for (const [path, init, status] of cases) {
      const response = await fetch(`${base()}${path}`, { redirect: 'manual', ...init })
      assert.equal(response.status, status, path)
      assertSecurityHeaders(assert, response, path)
      await response.arrayBuffer()
    }
  })

  test('static files carry them too', async ({ assert }) => {
    const dir = app.publicPath()
    const existed = await stat(dir).then(
      () => true,
      () => false
    )
    const file = app.publicPath('security-headers-probe.txt')
    await mkdir(dir, { recursive: true })
    await writeFile(file, 'probe')
    try {
      const response = await fetch(`${base()}/security-headers-probe.txt`)
      assert.equal(response.status, 200)
      assert.equal(await response.text(), 'probe')
      assertSecurityHeaders(assert, response, 'static file')
    } finally {
      await rm(existed ? file : dir, { recursive: true, force: true })
    }
  })

  test('the headers are the ones shield makes, learned once and set on every answer', async ({
    assert,
  }) => {
    // Shield itself, on a request of its own.
    const ctx = await testUtils.createHttpContext()
    const shield = await app.container.make(ShieldMiddleware)
    await shield.handle(ctx, async () => {})
    const fromShield = {
      'content-security-policy': String(
        ctx.response.response.getHeader('content-security-policy') ??
          ctx.response.getHeader('content-security-policy')
      ),
      'x-frame-options': String(ctx.response.getHeader('x-frame-options')),
      'x-content-type-options': String(ctx.response.getHeader('x-content-type-options')),
    }
    for (const path of ['/health', '/api/no-such-endpoint', '/api/products']) {
      const response = await fetch(`${base()}${path}`)
      await response.arrayBuffer()
      for (const [name, value] of Object.entries(fromShield)) {
        assert.equal(response.headers.get(name), value, `${path} ${name}`)
      }
    }
  })

  test('HSTS is sent on answers served over HTTPS', async ({ assert }) => {
    const ctx = await testUtils.createHttpContext()
    Object.defineProperty(ctx.request.request.socket, 'encrypted', { value: true })
    await new SecurityHeadersMiddleware().handle(ctx, async () => {})
    assert.equal(ctx.request.protocol(), 'https')
    assert.equal(
      ctx.response.getHeader('Strict-Transport-Security'),
      'max-age=15552000; includeSubDomains'
    )
    assert.equal(ctx.response.getHeader('Referrer-Policy'), 'strict-origin-when-cross-origin')
  })

  test('the policy opens exactly the hosts of the integrations that are configured', ({
    assert,
  }) => {
    const none = {
      mapsApiKey: null,
      chatWidgetId: null,
      analyticsId: null,
      socialTimelineUrl: null,
      cardProviderKey: null,
    }
    const bare = contentSecurityDirectives(none)
    assert.deepEqual(bare.scriptSrc, [`'self'`])
    assert.deepEqual(bare.connectSrc, [`'self'`])
    assert.deepEqual(bare.frameSrc, [`'none'`])

    const stripe = contentSecurityDirectives({ ...none, cardProviderKey: 'pk_test_123' })
    assert.include(stripe.scriptSrc, 'https://js.stripe.com')
    assert.include(stripe.frameSrc, 'https://js.stripe.com')
    assert.include(stripe.connectSrc, 'https://api.stripe.com')
    assert.notInclude(stripe.scriptSrc, 'https://maps.googleapis.com')

    const all = contentSecurityDirectives({
      mapsApiKey: 'key',
      chatWidgetId: 'abc123',
      analyticsId: 'GTM-XXXX',
      socialTimelineUrl: 'https://twitter.com/dropslot',
      cardProviderKey: 'pk_test_123',
    })
    for (const host of [
      'https://maps.googleapis.com',
      'https://widget.intercom.io',
      'https://www.googletagmanager.com',
      'https://platform.twitter.com',
      'https://js.stripe.com',
    ]) {
      assert.include(all.scriptSrc, host)
    }
    assert.notInclude(all.scriptSrc, `'unsafe-inline'`)
    assert.deepEqual(all.frameAncestors, [`'none'`])
  })
})
