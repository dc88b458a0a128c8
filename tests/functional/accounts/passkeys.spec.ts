import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_ADMIN_TOTP_SECRET } from '#database/seeders/demo_seeder'
import { secondFactor } from '#accounts/services/second_factor'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'

const PASSWORD = 'correct-horse-battery'

/** A passkey row as registration keeps it (the key itself does not matter to these checks). */
async function givePasskey(userId: number) {
  await db.table('passkeys').insert({
    user_id: userId,
    credential_id: `cred-${userId}`,
    public_key: 'pQECAyYgASFYIA',
    counter: 0,
    name: 'Test key',
    created_at: sqlTime(),
  })
}

test.group('Passkeys: who may add one, and what a bad answer gets', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a password alone cannot add a factor to an account that has one', async ({
    client,
    assert,
  }) => {
    const withTotp = await UserFactory.merge({ role: 'owner' }).create()
    await secondFactor.enrolKnownSecret(withTotp.id, DEMO_ADMIN_TOTP_SECRET)
    const first = await client.post('/login').json({ email: withTotp.email, password: PASSWORD })
    const addPasskey = await client
      .post('/api/session/passkey/register/options')
      .bearerToken(first.body().token)
    addPasskey.assertStatus(403)
    assert.equal(addPasskey.body().code, 'second_factor_required')

    const withPasskey = await UserFactory.merge({ role: 'support' }).create()
    await givePasskey(withPasskey.id)
    const second = await client
      .post('/login')
      .json({ email: withPasskey.email, password: PASSWORD })
    assert.containsSubset(second.body(), { secondFactor: 'required' })
    assert.include(second.body().methods, 'passkey')
    const addTotp = await client.post('/api/session/totp/enrol').bearerToken(second.body().token)
    addTotp.assertStatus(403)
    assert.equal(addTotp.body().code, 'second_factor_required')
    const stored = await db.from('users').where('id', withPasskey.id).first()
    assert.isNull(stored.totp_secret_sealed)
  })

  test('a new account may add its first passkey; a signed-in one only with a fresh factor', async ({
    client,
    assert,
  }) => {
    const fresh = await UserFactory.merge({ role: 'owner' }).create()
    const login = await client.post('/login').json({ email: fresh.email, password: PASSWORD })
    assert.deepEqual(login.body().methods, ['totp', 'passkey'])
    const options = await client
      .post('/api/session/passkey/register/options')
      .bearerToken(login.body().token)
    options.assertStatus(200)
    assert.equal(options.body().rp.id, 'localhost')
    assert.equal(options.body().attestation, 'none')

    const owner = await UserFactory.merge({ role: 'owner' }).create()
    await secondFactor.enrolKnownSecret(owner.id, DEMO_ADMIN_TOTP_SECRET)
    const signIn = await client.post('/login').json({ email: owner.email, password: PASSWORD })
    const token = signIn.body().token
    await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET) })
      .bearerToken(token)
    clock.travel(6 * 60_000)
    await client.get('/api/admin/dashboard').bearerToken(token)
    const stale = await client.post('/api/session/passkey/register/options').bearerToken(token)
    stale.assertStatus(403)
    assert.equal(stale.body().code, 'step_up_required')
  })

  test('an answer without a challenge, or of the wrong shape, is a 422 and opens nothing', async ({
    client,
    assert,
  }) => {
    const staff = await UserFactory.merge({ role: 'owner' }).create()
    await givePasskey(staff.id)
    const login = await client.post('/login').json({ email: staff.email, password: PASSWORD })
    const token = login.body().token
    const credential = {
      id: `cred-${staff.id}`,
      rawId: `cred-${staff.id}`,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
    }
    const noChallenge = await client
      .post('/api/session/passkey')
      .json({ credential })
      .bearerToken(token)
    noChallenge.assertStatus(422)
    assert.equal(noChallenge.body().code, 'passkey_invalid')

    await client.post('/api/session/passkey/options').bearerToken(token)
    const forged = await client.post('/api/session/passkey').json({ credential }).bearerToken(token)
    forged.assertStatus(422)
    const replayed = await client
      .post('/api/session/passkey')
      .json({ credential })
      .bearerToken(token)
    replayed.assertStatus(422)
    assert.include(replayed.body().error, 'timed out')

    const wrongShape = await client
      .post('/api/session/passkey')
      .json({ credential: { id: 'x<script>', response: 'nope' } })
      .bearerToken(token)
    wrongShape.assertStatus(422)
    const still = await client.get('/api/admin/orders').bearerToken(token)
    assert.equal(still.body().code, 'second_factor_required')
  })
})
