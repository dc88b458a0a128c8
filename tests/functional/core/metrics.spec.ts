import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import metricsConfig from '#config/metrics'
import { startMetricsServer, portOf } from '#core/services/metrics_server'
import { customerWithCard, productFor, profileFor } from '#tests/helpers'

const TOKEN = 'test-metrics-token-0123456789'

/** The value of one series in Prometheus's text format (0 when the series is not there). */
export function seriesValue(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? ''
    const matches = Object.entries(labels).every(([key, value]) =>
      labelText.includes(`${key}="${value}"`)
    )
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return 0
}

test.group('Prometheus metrics at /metrics', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => {
    const previous = metricsConfig.token
    metricsConfig.token = TOKEN
    return () => {
      metricsConfig.token = previous
    }
  })

  test('without METRICS_TOKEN the endpoint does not exist', async ({ client }) => {
    metricsConfig.token = null
    const response = await client.get('/metrics').bearerToken(TOKEN)
    response.assertStatus(404)
    response.assertBodyContains({ success: false, code: 'not_found' })
  })

  test('refuses a scrape without the token or with a wrong one', async ({ client, assert }) => {
    const anonymous = await client.get('/metrics')
    anonymous.assertStatus(401)
    anonymous.assertBodyContains({ success: false, code: 'unauthorized' })
    assert.equal(anonymous.header('www-authenticate'), 'Bearer realm="metrics"')
    assert.notInclude(anonymous.text(), 'dropslot_')

    const wrong = await client.get('/metrics').bearerToken('not-the-token')
    wrong.assertStatus(401)
    const inQuery = await client.get(`/metrics?token=${TOKEN}`)
    inQuery.assertStatus(401)
  })

  test('with the token: the text format, labelled with this process', async ({
    client,
    assert,
  }) => {
    await client.get('/api/products')
    const response = await client.get('/metrics').bearerToken(TOKEN)
    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
    assert.equal(response.header('cache-control'), 'no-store')
    const text = response.text()
    assert.include(text, '# TYPE dropslot_http_request_duration_seconds histogram')
    assert.include(text, '# TYPE dropslot_checkouts_total counter')
    assert.include(text, '# TYPE dropslot_queue_jobs gauge')
    // The products call is in the request histogram under its route pattern, with our labels.
    assert.isAbove(
      seriesValue(text, 'dropslot_http_request_duration_seconds_count', {
        route: '/api/products',
        method: 'GET',
        status: '2xx',
      }),
      0
    )
    assert.match(text, /role="(web|console)",process="[^"]+:\d+"/)
  })

  test('counters move with a checkout: the order, its route, and a sold-out refusal', async ({
    client,
    assert,
  }) => {
    const scrape = async () => {
      const response = await client.get('/metrics').bearerToken(TOKEN)
      return response.text()
    }
    const before = await scrape()
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ totalStock: 1, stockTaken: 0 })

    const bought = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
    bought.assertStatus(201)
    const other = await customerWithCard()
    const otherProfile = await profileFor(other.user)
    const refused = await client
      .post('/api/checkout/withprofile')
      .bearerToken(other.token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: otherProfile.publicId })
    refused.assertStatus(409)
    refused.assertBodyContains({ code: 'sold_out' })
    // Now remembered: answered before the router, still counted under the checkout's route.
    const fromMemory = await client
      .post('/api/checkout/withprofile')
      .json({ productId: product.id, style: 'Black', size: '9', profileId: otherProfile.publicId })
    fromMemory.assertStatus(409)
    fromMemory.assertBodyContains({ code: 'sold_out' })

    const after = await scrape()
    const delta = (name: string, labels: Record<string, string> = {}) =>
      seriesValue(after, name, labels) - seriesValue(before, name, labels)
    assert.equal(delta('dropslot_checkouts_total', { result: 'ordered' }), 1)
    assert.equal(delta('dropslot_checkouts_total', { result: 'sold_out' }), 2)
    assert.equal(delta('dropslot_sold_out_refusals_total', { source: 'checkout' }), 1)
    assert.equal(delta('dropslot_sold_out_refusals_total', { source: 'shortcut' }), 1)
    assert.equal(
      delta('dropslot_http_request_duration_seconds_count', {
        route: '/api/checkout/withprofile',
        method: 'POST',
        status: '2xx',
      }),
      1
    )
    assert.equal(
      delta('dropslot_http_request_duration_seconds_count', {
        route: '/api/checkout/withprofile',
        status: '4xx',
      }),
      2
    )
  })

  test("a worker's own listener serves the same metrics behind the same token", async ({
    assert,
  }) => {
    const server = await startMetricsServer(0, '127.0.0.1')
    assert.isNotNull(server)
    try {
      const url = `http://127.0.0.1:${portOf(server!)}/metrics`
      const anonymous = await fetch(url)
      assert.equal(anonymous.status, 401)
      const wrong = await fetch(url, { headers: { authorization: 'Bearer wrong' } })
      assert.equal(wrong.status, 401)
      const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
      assert.equal(response.status, 200)
      assert.include(await response.text(), 'dropslot_holds_total')
      const elsewhere = await fetch(url.replace('/metrics', '/other'))
      assert.equal(elsewhere.status, 404)
    } finally {
      server!.close()
    }
  })
})
