import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { customerWithToken } from '#tests/helpers'

test.group('Error envelope for bad input', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('malformed JSON is a 400 envelope', async ({ assert }) => {
    const response = await fetch(`http://${process.env.HOST}:${process.env.PORT}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": "a@b.c", ',
    })
    assert.equal(response.status, 400)
    assert.deepEqual(await response.json(), {
      success: false,
      error: 'The request body is not valid JSON.',
      code: 'bad_request',
    })
  })

  test('wrong types and missing fields are 422 envelopes', async ({ client, assert }) => {
    const { token } = await customerWithToken()
    const cases: [string, unknown][] = [
      ['/login', { email: ['x'], password: { a: 1 } }],
      ['/register', {}],
      ['/api/user/billing/set', { billingAddress: 'street' }],
      ['/api/user/updateProfile', { updates: [1, 2] }],
    ]
    for (const [url, body] of cases) {
      const response = await client.post(url).bearerToken(token).json(body)
      assert.equal(response.status(), 422, url)
      assert.equal(response.body().success, false)
      assert.isObject(response.body().errors)
    }
  })

  test('an oversized body is a 413 envelope', async ({ client }) => {
    const response = await client
      .post('/register')
      .json({ email: 'big@example.test', password: 'x'.repeat(400 * 1024) })
    response.assertStatus(413)
    response.assertBodyContains({ success: false, code: 'payload_too_large' })
  })
})
