import { mkdir, rm, writeFile, stat } from 'node:fs/promises'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import { HttpContextFactory, RequestFactory, ResponseFactory } from '@adonisjs/core/factories/http'
import SecurityHeadersMiddleware from '#core/middleware/security_headers_middleware'
import { contentSecurityDirectives } from '#config/shield'
import { trustedProxies } from '#config/app'

const base = () => `http://${process.env.HOST}:${process.env.PORT}`

/** The directives of a content security policy, each named once (a browser ignores repeats). */
function directives(policy: string, assert: any) {
  const parsed: Record<string, string[]> = {}
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (!name) continue
    assert.notProperty(parsed, name.toLowerCase(), `${name} named twice`)
    parsed[name.toLowerCase()] = sources
  }
  return parsed
}

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

  test('the policy a browser enforces: own origin only, no inline or injected scripts, no framing', async ({
    assert,
  }) => {
    for (const path of ['/', '/health', '/api/no-such-endpoint', '/api/products']) {
      const response = await fetch(`${base()}${path}`)
      await response.arrayBuffer()
      // A report-only policy is not enforced.
      assert.isNull(response.headers.get('content-security-policy-report-only'), path)
      const policy = directives(response.headers.get('content-security-policy') ?? '', assert)
      assert.deepEqual(policy['default-src'], [`'self'`], path)
      // The app's own scripts, plus only the https hosts of configured integrations.
      const [own, ...hosts] = policy['script-src'] ?? []
      assert.equal(own, `'self'`, path)
      for (const host of hosts) assert.match(host, /^https:\/\/[a-z0-9*.-]+\.[a-z]+$/, path)
      assert.deepEqual(policy['object-src'], [`'none'`], path)
      assert.deepEqual(policy['frame-ancestors'], [`'none'`], path)
      assert.deepEqual(policy['base-uri'], [`'self'`], path)
      assert.deepEqual(policy['form-action'], [`'self'`], path)
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path)
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path)
      assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', path)
    }
  })

  test('a client claiming HTTPS through X-Forwarded-Proto is not believed without a trusted proxy', async ({
    assert,
  }) => {
    const response = await fetch(`${base()}/health`, { headers: { 'x-forwarded-proto': 'https' } })
    await response.arrayBuffer()
    assert.equal(response.status, 200)
    assert.isNull(response.headers.get('strict-transport-security'))
  })

  test('HSTS is sent behind a trusted proxy that forwarded HTTPS, and not for plain HTTP', async ({
    assert,
  }) => {
    const answer = async (forwardedProto: string) => {
      const req = new IncomingMessage(new Socket())
      Object.defineProperty(req.socket, 'remoteAddress', { value: '10.0.0.5' })
      req.headers['x-forwarded-proto'] = forwardedProto
      const res = new ServerResponse(req)
      const ctx = new HttpContextFactory()
        .merge({
          request: new RequestFactory()
            .merge({ req, res, config: { trustProxy: trustedProxies('10.0.0.0/8') } })
            .create(),
          response: new ResponseFactory().merge({ req, res }).create(),
        })
        .create()
      await new SecurityHeadersMiddleware().handle(ctx, async () => {})
      return ctx.response.getHeader('Strict-Transport-Security')
    }
    assert.equal(await answer('https'), 'max-age=15552000; includeSubDomains')
    assert.isUndefined(await answer('http'))
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
