import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import EmailMessage from '#notifications/models/email_message'
import { customerWithToken } from '#tests/helpers'
import env from '#start/env'

const RESET_REQUESTED =
  'If an account exists for that e-mail, we have sent a link to reset the password.'

async function requestReset(client: any, email: string) {
  const response = await client.post('/api/forgotpw').json({ email })
  response.assertStatus(200)
  response.assertBody({ success: true, message: RESET_REQUESTED })
  const message = await EmailMessage.query()
    .where('to_address', email)
    .where('template', 'password_reset')
    .orderBy('id', 'desc')
    .first()
  const token = message?.textBody.match(/\/reset\?token=([A-Za-z0-9_-]+)/)?.[1]
  return { message, token }
}

/** Sets a new password with a reset link's token (`confirm`: the confirmation typed, if other). */
function resetPassword(
  client: any,
  hash: string | undefined,
  password: string,
  confirm = password
) {
  return client.post('/api/resetpassword').json({ hash, password, confirmPassword: confirm })
}

function signIn(client: any, email: string, password: string) {
  return client.post('/login').json({ email, password })
}

test.group('Password reset', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the e-mailed link sets a new password once and signs out old sessions', async ({
    client,
    assert,
  }) => {
    const { user, token: session } = await customerWithToken()
    const { token } = await requestReset(client, user.email)
    assert.isString(token)

    const reset = await resetPassword(client, token, 'brand-new-pass')
    reset.assertStatus(200)

    const oldSession = await client.get('/api/user/info').bearerToken(session)
    oldSession.assertStatus(401)
    const newLogin = await signIn(client, user.email, 'brand-new-pass')
    newLogin.assertStatus(200)
    const oldLogin = await signIn(client, user.email, 'correct-horse-battery')
    oldLogin.assertStatus(400)

    const again = await resetPassword(client, token, 'another-pass-1')
    again.assertStatus(400)
    again.assertBodyContains({ code: 'invalid_reset_token' })
  })

  test('every link in the e-mail starts with APP_URL', async ({ client, assert }) => {
    const { user } = await customerWithToken()
    const { message } = await requestReset(client, user.email)
    const appUrl = env.get('APP_URL')!
    const links = [
      ...message!.textBody.matchAll(/https?:\/\/[^\s"<]+/g),
      ...(message!.htmlBody ?? '').matchAll(/href="([^"]+)"/g),
    ].map((match) => match[1] ?? match[0])
    assert.isAbove(links.length, 1)
    for (const link of links) assert.isTrue(link.startsWith(`${appUrl}/`), link)
  })

  test('a reset makes every other reset link of the account stop working', async ({
    client,
    assert,
  }) => {
    const { user } = await customerWithToken()
    const { token: older } = await requestReset(client, user.email)
    const { token: newer } = await requestReset(client, user.email)
    assert.notEqual(older, newer)

    const reset = await resetPassword(client, newer, 'brand-new-pass')
    reset.assertStatus(200)

    const stale = await resetPassword(client, older, 'someone-elses')
    stale.assertStatus(400)
    stale.assertBodyContains({ code: 'invalid_reset_token' })
    const login = await signIn(client, user.email, 'brand-new-pass')
    login.assertStatus(200)
  })

  test('an unknown e-mail gets the same answer as a known one, and no e-mail goes out', async ({
    client,
    assert,
  }) => {
    const { user } = await customerWithToken()
    const known = await client.post('/api/forgotpw').json({ email: user.email })
    const sentBefore = await EmailMessage.query().count('* as total')
    const unknown = await client.post('/api/forgotpw').json({ email: 'ghost@example.test' })
    assert.equal(unknown.status(), known.status())
    assert.deepEqual(unknown.body(), known.body())
    const sentAfter = await EmailMessage.query().count('* as total')
    assert.equal(Number(sentAfter[0].$extras.total), Number(sentBefore[0].$extras.total))
  })

  test('an expired link is refused and the password stays as it was', async ({
    client,
    assert,
  }) => {
    const { user } = await customerWithToken()
    const { token } = await requestReset(client, user.email)
    await db.from('password_reset_tokens').update({ expires_at: '2020-01-01 00:00:00' })
    const response = await resetPassword(client, token, 'brand-new-pass')
    response.assertStatus(400)
    response.assertBodyContains({ code: 'invalid_reset_token' })
    assert.equal(
      response.body().error,
      'This reset link is invalid or has expired. Please ask for a new one.'
    )
    const withNew = await signIn(client, user.email, 'brand-new-pass')
    withNew.assertStatus(400)
    const withOld = await signIn(client, user.email, 'correct-horse-battery')
    withOld.assertStatus(200)
  })

  test('mismatched or short passwords are refused, and the link still works after', async ({
    client,
    assert,
  }) => {
    const { user } = await customerWithToken()
    const { token } = await requestReset(client, user.email)
    const mismatch = await resetPassword(client, token, 'brand-new-pass', 'different-pass')
    mismatch.assertStatus(422)
    assert.equal(mismatch.body().errors.confirmPassword, 'Passwords do not match.')
    const short = await resetPassword(client, token, 'short')
    short.assertStatus(422)
    assert.property(short.body().errors, 'password')

    // Neither refusal changed the password or spent the link.
    for (const password of ['brand-new-pass', 'short']) {
      const refused = await signIn(client, user.email, password)
      refused.assertStatus(400)
    }
    const withOld = await signIn(client, user.email, 'correct-horse-battery')
    withOld.assertStatus(200)
    const reset = await resetPassword(client, token, 'brand-new-pass')
    reset.assertStatus(200)
  })
})
