import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import { customerWithCard, customerWithToken, productFor, profileFor } from '#tests/helpers'

const base = () => `http://${process.env.HOST}:${process.env.PORT}`
const CHECKOUT = '/api/checkout/withprofile'

/** Headers that differ between any two answers, whatever made them. */
const PER_ANSWER = new Set(['date', 'x-request-id'])

function press(body: unknown, token?: string, init: { raw?: string; type?: string } = {}) {
  return fetch(`${base()}${CHECKOUT}`, {
    method: 'POST',
    headers: {
      'content-type': init.type ?? 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: init.raw ?? JSON.stringify(body),
  })
}

/** Status, body and every header that does not change from one answer to the next. */
async function answer(response: Response) {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (!PER_ANSWER.has(name)) headers[name] = value
  })
  return { status: response.status, body: await response.text(), headers }
}

/** The security headers every answer carries (tests/functional/core/security_headers.spec.ts). */
function assertSecurityHeaders(assert: any, headers: Record<string, string>, label: string) {
  const csp = headers['content-security-policy'] ?? ''
  assert.include(csp, "default-src 'self'", label)
  assert.include(csp, "script-src 'self'", label)
  assert.include(csp, "frame-ancestors 'none'", label)
  assert.include(csp, "object-src 'none'", label)
  assert.equal(headers['x-frame-options'], 'DENY', label)
  assert.equal(headers['x-content-type-options'], 'nosniff', label)
  assert.equal(headers['referrer-policy'], 'strict-origin-when-cross-origin', label)
  assert.isUndefined(headers['strict-transport-security'], label)
}

test.group('Checkout refusals on the release-day path', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.teardown(() => soldOutMemory.clear())

  test('the remembered sold-out answer is the checkout’s own 409, every header included', async ({
    assert,
  }) => {
    const product = await productFor({ totalStock: 1, stockTaken: 0 })
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const body = { productId: product.id, style: 'Black', size: '9', profileId: profile.publicId }

    const bought = await press(body, token)
    assert.equal(bought.status, 201)
    await bought.arrayBuffer()
    // The checkout reads the product, finds no slot and answers through the error handler.
    const fromCheckout = await answer(await press(body, token))
    // Now remembered: answered before the token is read (an unknown token would be a 401).
    const fromMemory = await answer(await press(body, 'oat_MQ.bm90LWEtcmVhbC10b2tlbg'))

    assert.equal(fromCheckout.status, 409)
    assert.deepEqual(JSON.parse(fromCheckout.body), {
      success: false,
      error: 'Sorry, this release is sold out.',
      code: 'sold_out',
    })
    assert.deepEqual(fromMemory, fromCheckout)
    assertSecurityHeaders(assert, fromMemory.headers, 'sold out from memory')
    assert.equal(fromMemory.headers['content-type'], 'application/json; charset=utf-8')
  })

  test('the body limits still refuse before a remembered sell-out is answered', async ({
    assert,
  }) => {
    const product = await productFor({ totalStock: 0 })
    soldOutMemory.remember(product.id)
    const productId = product.id

    const cases: [string, Response, number, string][] = [
      [
        'nested too deeply',
        await press(null, undefined, {
          raw: `{"productId":${productId},"x":${'['.repeat(100)}${']'.repeat(100)}}`,
        }),
        400,
        'malformed_body',
      ],
      [
        'lone surrogate',
        await press(null, undefined, {
          raw: `{"productId":${productId},"profileId":"\\ud800"}`,
        }),
        400,
        'malformed_body',
      ],
      ['not JSON', await press(null, undefined, { raw: `{"productId":${productId},` }), 400, ''],
      [
        'too large',
        await press({ productId, filler: 'x'.repeat(300 * 1024) }),
        413,
        'payload_too_large',
      ],
    ]
    for (const [label, response, status, code] of cases) {
      const { status: actual, body, headers } = await answer(response)
      assert.equal(actual, status, label)
      if (code) assert.equal(JSON.parse(body).code, code, label)
      assert.isFalse(JSON.parse(body).success, label)
      assertSecurityHeaders(assert, headers, label)
    }
  })

  test('every other refusal of the checkout carries the security headers too', async ({
    assert,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const noCard = await customerWithToken()
    const noCardProfile = await profileFor(noCard.user)
    const product = await productFor()
    const hidden = await productFor({ avail: false })
    const pressFor = (productId: number, profileId = profile.publicId) => ({
      productId,
      style: 'Black',
      size: '9',
      profileId,
    })

    const refusals: [string, Response, number, string][] = [
      ['no token', await press(pressFor(product.id)), 401, 'unauthorized'],
      ['unknown product', await press(pressFor(hidden.id), token), 404, 'product_not_found'],
      [
        'no card',
        await press(pressFor(product.id, noCardProfile.publicId), noCard.token),
        402,
        'card_required',
      ],
    ]
    const bought = await press(pressFor(product.id), token)
    assert.equal(bought.status, 201)
    await bought.arrayBuffer()
    refusals.push(['duplicate', await press(pressFor(product.id), token), 409, 'duplicate'])
    // The per-customer limit (30 a minute): the presses above count, then the 31st is refused.
    let limited: Response | null = null
    for (let attempt = 0; attempt < 31 && !limited; attempt++) {
      const response = await press(pressFor(hidden.id), token)
      if (response.status === 429) limited = response
      else await response.arrayBuffer()
    }
    assert.isNotNull(limited, 'the checkout never answered 429')
    refusals.push(['rate limit', limited!, 429, 'too_many_requests'])

    for (const [label, response, status, code] of refusals) {
      const { status: actual, body, headers } = await answer(response)
      assert.equal(actual, status, label)
      assert.equal(JSON.parse(body).code, code, label)
      assertSecurityHeaders(assert, headers, label)
      if (status === 429) assert.isAbove(Number(headers['retry-after']), 0, label)
    }
  })
})
