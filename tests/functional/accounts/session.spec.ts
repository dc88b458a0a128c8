import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { sqlTime } from '#core/helpers/sql_time'
import testUtils from '@adonisjs/core/services/test_utils'
import { adminWithToken, customerWithToken } from '#tests/helpers'

test.group('Session tokens', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('user info needs a token', async ({ client }) => {
    const response = await client.get('/api/user/info')
    response.assertStatus(401)
    response.assertBody({
      success: false,
      error: 'Please log in to continue.',
      code: 'unauthorized',
    })
    const forged = await client.get('/api/user/info').bearerToken('oat_MQ.forged-token-value')
    forged.assertStatus(401)
  })

  test('logout revokes the token', async ({ client }) => {
    const { token } = await customerWithToken()
    const before = await client.get('/api/user/info').bearerToken(token)
    before.assertStatus(200)
    const logout = await client.post('/api/logout').bearerToken(token)
    logout.assertStatus(200)
    logout.assertBody({ success: true })
    const after = await client.get('/api/user/info').bearerToken(token)
    after.assertStatus(401)
  })

  test('an expired token is refused', async ({ client }) => {
    const { user, token } = await customerWithToken()
    await db
      .from('auth_access_tokens')
      .where('tokenable_id', user.id)
      .update({ expires_at: new Date(Date.now() - 1000) })
    const response = await client.get('/api/user/info').bearerToken(token)
    response.assertStatus(401)
  })

  test('a token whose expiry is stored as text is read as a time: valid until then, refused after', async ({
    client,
  }) => {
    // SQLite hands back text for a time written as text (sqlTime), not a Date.
    const { user, token } = await customerWithToken()
    const tokens = () => db.from('auth_access_tokens').where('tokenable_id', user.id)
    await tokens().update({ expires_at: sqlTime(DateTime.now().plus({ days: 1 })) })
    const valid = await client.get('/api/user/info').bearerToken(token)
    valid.assertStatus(200)
    await tokens().update({ expires_at: sqlTime(DateTime.now().minus({ seconds: 1 })) })
    const expired = await client.get('/api/user/info').bearerToken(token)
    expired.assertStatus(401)
  })

  test('tokens are stored hashed, never as issued', async ({ assert }) => {
    const { user, token } = await customerWithToken()
    const rows = await db.from('auth_access_tokens').where('tokenable_id', user.id)
    const secret = token.split('.')[1]
    assert.lengthOf(rows, 1)
    assert.notInclude(JSON.stringify(rows), secret)
  })

  test('GET /users is for admins only', async ({ client, assert }) => {
    const customer = await customerWithToken()
    const admin = await adminWithToken()
    const anonymous = await client.get('/users')
    anonymous.assertStatus(401)
    const forbidden = await client.get('/users').bearerToken(customer.token)
    forbidden.assertStatus(403)
    forbidden.assertBodyContains({ success: false, code: 'forbidden' })
    const list = await client.get('/users').bearerToken(admin.token)
    list.assertStatus(200)
    const emails = list.body().map((user: { email: string }) => user.email)
    assert.includeMembers(emails, [customer.user.email, admin.user.email])
    assert.notInclude(JSON.stringify(list.body()), 'password')
  })
})
