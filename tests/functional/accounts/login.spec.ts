import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { UserFactory } from '#database/factories/user_factory'

test.group('Login', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('returns a token for the right password', async ({ client, assert }) => {
    const user = await UserFactory.create()
    const response = await client
      .post('/login')
      .json({ email: user.email.toUpperCase(), password: 'correct-horse-battery' })
    response.assertStatus(200)
    assert.isTrue(response.body().success)
    assert.match(response.body().token, /^oat_/)

    const info = await client.get('/api/user/info').bearerToken(response.body().token)
    info.assertStatus(200)
    info.assertBodyContains({ email: user.email })
  })

  test('answers the same message for a wrong password and an unknown e-mail', async ({
    client,
  }) => {
    const user = await UserFactory.create()
    for (const email of [user.email, 'nobody@example.test']) {
      const response = await client.post('/login').json({ email, password: 'wrong-password' })
      response.assertStatus(400)
      response.assertBody({
        success: false,
        error: 'Email or password is incorrect.',
        code: 'invalid_credentials',
      })
    }
  })
})
