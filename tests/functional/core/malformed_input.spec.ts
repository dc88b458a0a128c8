import { connect } from 'node:net'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import User from '#accounts/models/user'
import HttpExceptionHandler from '#core/exceptions/handler'
import { adminWithToken, customerWithToken } from '#tests/helpers'

const base = () => `http://${process.env.HOST}:${process.env.PORT}`

function postRaw(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
}

test.group('Malformed requests are 4xx, never 5xx', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('JSON nested deeper than 64 levels is a 400; 64 levels are read', async ({ assert }) => {
    for (const body of [
      '['.repeat(5000) + ']'.repeat(5000),
      '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
      '{"email":' + '['.repeat(65) + ']'.repeat(65) + '}',
    ]) {
      const response = await postRaw('/login', body)
      assert.equal(response.status, 400)
      assert.deepEqual(await response.json(), {
        success: false,
        error: 'The request body is nested too deeply (at most 64 levels).',
        code: 'malformed_body',
      })
    }
    // 64 levels parse; the validator then says what is wrong with the field.
    const fine = await postRaw('/login', '{"email":' + '['.repeat(63) + ']'.repeat(63) + '}')
    assert.equal(fine.status, 422)
  })

  test('a body that does not match its Content-Encoding is a 400', async ({ assert }) => {
    const response = await postRaw('/login', '{"email":"a@b.c"}', { 'content-encoding': 'gzip' })
    assert.equal(response.status, 400)
    assert.deepInclude(await response.json(), {
      success: false,
      code: 'malformed_body',
      error: 'The request body could not be decoded with its Content-Encoding.',
    })
  })

  test('a lone UTF-16 surrogate in any text is a 400 and writes nothing', async ({ assert }) => {
    const body = (name: string) =>
      `{"email":"lone@example.test","password":"secret-password-1","name":"${name}",` +
      `"firstName":"Ann","lastName":"Lee","phone":"5551234"}`
    for (const name of ['\\ud800', 'x\\udc00y']) {
      const response = await postRaw('/register', body(name))
      assert.equal(response.status, 400)
      const answer = (await response.json()) as { error: string }
      assert.equal(answer.error, 'The request body contains text that is not valid Unicode.')
    }
    const key = await postRaw('/register', '{"\\ud800":1}')
    assert.equal(key.status, 400)
    assert.isNull(await User.findBy('email', 'lone@example.test'))
    // A surrogate pair (an emoji) is ordinary text.
    const emoji = await postRaw('/login', '{"email":"\\ud83d\\ude00","password":"x"}')
    assert.equal(emoji.status, 400)
    const emojiAnswer = (await emoji.json()) as { code: string }
    assert.equal(emojiAnswer.code, 'invalid_credentials')
  })

  test('numeric ids past the safe range are 404s before any SQL', async ({ client }) => {
    const { token } = await adminWithToken()
    const huge = '9'.repeat(5000)
    for (const path of [`/api/products/${huge}`, `/api/products/${'9'.repeat(16)}`]) {
      const response = await client.get(path)
      response.assertStatus(404)
      response.assertBodyContains({ success: false, code: 'product_not_found' })
    }
    for (const path of [
      `/api/admin/products/${huge}`,
      `/api/admin/promo-codes/${huge}`,
      `/api/admin/release-runs/${huge}`,
      `/api/admin/audit-log/${huge}`,
    ]) {
      const response = await client.get(path).bearerToken(token)
      response.assertStatus(404)
      response.assertBodyContains({ success: false, code: 'not_found' })
    }
  })

  test('an admin clearing a customer phone with null is answered, not a crash', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { user } = await customerWithToken({ phone: '5551234' })
    const response = await client
      .put(`/api/admin/customers/${user.uuid}`)
      .bearerToken(token)
      .json({ phone: null })
    response.assertStatus(200)
    assert.isNull(response.body().phone)
    await user.refresh()
    assert.isNull(user.phone)
    const bad = await client
      .put(`/api/admin/customers/${user.uuid}`)
      .bearerToken(token)
      .json({ phone: ['5551234'] })
    bad.assertStatus(422)
  })

  test('a JSON body is read alike in every form it comes in', async ({ assert }) => {
    const credentials = '{"email":"nobody@example.test","password":"wrong-password"}'
    // The login reads the body: wrong credentials (400) say it was read, a 422 that it was not.
    const codeOf = async (response: Response) => {
      const envelope = (await response.json()) as { code: string }
      return `${response.status} ${envelope.code}`
    }
    const read = '400 invalid_credentials'
    const forms: [string, Promise<Response>][] = [
      ['plain', postRaw('/login', credentials)],
      [
        'charset',
        postRaw('/login', credentials, { 'content-type': 'application/json; charset=UTF-8' }),
      ],
      [
        'vendor type',
        postRaw('/login', credentials, { 'content-type': 'application/vnd.api+json' }),
      ],
      ['byte order mark', postRaw('/login', '\ufeff' + credentials)],
      [
        'chunked',
        fetch(`${base()}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new Blob([credentials]).stream(),
          duplex: 'half',
        } as RequestInit),
      ],
    ]
    for (const [form, response] of forms) assert.equal(await codeOf(await response), read, form)

    // An empty body is an empty object, a key that reaches the prototype is dropped, a body
    // that is not an object or an array is refused, as the framework's own parser does.
    assert.equal(await codeOf(await postRaw('/login', '')), '422 validation_failed')
    const poisoned = await postRaw('/login', '{"__proto__":{"email":"nobody@example.test"}}')
    assert.equal(await codeOf(poisoned), '422 validation_failed')
    const scalar = await postRaw('/login', '"nobody@example.test"')
    assert.deepEqual(await scalar.json(), {
      success: false,
      error: 'The request could not be processed.',
      code: 'validation_failed',
    })
    const large = `{"email":"${'x'.repeat(300 * 1024)}"}`
    assert.equal(await codeOf(await postRaw('/login', large)), '413 payload_too_large')
    const largeChunked = await fetch(`${base()}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([large]).stream(),
      duplex: 'half',
    } as RequestInit)
    assert.equal(await codeOf(largeChunked), '413 payload_too_large')
  })

  test('a body cut short by its sender leaves the server answering the next', async ({
    assert,
  }) => {
    const socket = connect(Number(process.env.PORT), process.env.HOST)
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(
      'POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 200\r\n\r\n{"email":"nobody@exam'
    )
    socket.end()
    socket.resume()
    await new Promise((resolve) => socket.once('end', resolve))
    socket.destroy()
    const next = await postRaw('/login', '{"email":"nobody@example.test","password":"x"}')
    assert.equal(next.status, 400)
  })

  test('an unexpected error answers a plain 500 that shows no internals', async ({ assert }) => {
    const handler = new HttpExceptionHandler()
    const error = new Error(
      "select * from `users` where `email` = 'a' - connect to db.internal:3306 failed"
    )
    const { status, envelope } = handler.toEnvelope(error)
    assert.equal(status, 500)
    assert.deepEqual(envelope, {
      success: false,
      error: 'Something went wrong. Please try again.',
      code: 'server_error',
    })
  })
})

test.group('Database outage', (group) => {
  const primary = db.primaryConnectionName
  group.each.setup(() => {
    // A connection to a port nothing listens on stands in for a database that is down.
    db.manager.add('outage', {
      client: 'mysql2',
      connection: { host: '127.0.0.1', port: 9, user: 'nobody', database: 'none' },
      pool: { min: 0, max: 1, acquireTimeoutMillis: 2000 },
    })
    db.primaryConnectionName = 'outage'
    return async () => {
      db.primaryConnectionName = primary
      await db.manager.close('outage', true)
    }
  })

  test('API calls answer 503 with Retry-After', async ({ client, assert }) => {
    const response = await client.get('/api/products')
    response.assertStatus(503)
    assert.equal(response.header('retry-after'), '5')
    response.assertBody({
      success: false,
      error: 'The service is briefly unavailable. Please try again in a few seconds.',
      code: 'service_unavailable',
    })
  })

  test('/health reports the database down with 503', async ({ client, assert }) => {
    const response = await client.get('/health')
    response.assertStatus(503)
    response.assertBodyContains({ status: 'degraded', database: 'unreachable' })
    assert.equal(response.header('retry-after'), '5')
  })
})
