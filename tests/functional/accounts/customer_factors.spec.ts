import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import AuditLog from '#core/models/audit_log'
import { UserFactory } from '#database/factories/user_factory'
import { secondFactor } from '#accounts/services/second_factor'
import { clock } from '#core/services/clock'

const PASSWORD = 'correct-horse-battery'

test.group('Customers: two-step sign-in as a choice', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a customer turns on an authenticator; sign-in then asks for its code', async ({
    client,
    assert,
  }) => {
    const customer = await UserFactory.create()
    const signIn = () => client.post('/login').json({ email: customer.email, password: PASSWORD })
    const first = await signIn()
    assert.notProperty(first.body(), 'secondFactor')
    const token = first.body().token
    const before = await client.get('/api/user/info').bearerToken(token)
    assert.isFalse(before.body().twoStep)

    const enrol = await client.post('/api/session/totp/enrol').bearerToken(token)
    enrol.assertStatus(200)
    const { secret } = enrol.body()
    // Not on until a code proves the app holds the secret.
    const halfway = await signIn()
    assert.notProperty(halfway.body(), 'secondFactor')
    const proved = await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(secret) })
      .bearerToken(token)
    proved.assertStatus(200)
    assert.lengthOf(proved.body().recoveryCodes, 10)
    const on = await client.get('/api/user/info').bearerToken(token)
    assert.isTrue(on.body().twoStep)

    clock.travel(30_000)
    const asked = await signIn()
    assert.containsSubset(asked.body(), { secondFactor: 'required', methods: ['totp', 'recovery'] })
    const pending = asked.body().token
    const refused = await client.get('/api/user/orders').bearerToken(pending)
    refused.assertStatus(403)
    assert.equal(refused.body().code, 'second_factor_required')
    const passed = await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(secret) })
      .bearerToken(pending)
    passed.assertStatus(200)
    const orders = await client.get('/api/user/orders').bearerToken(pending)
    orders.assertStatus(200)
    // A customer's session keeps its usual life: it does not end for idling.
    clock.travel(3 * 3_600_000)
    const later = await client.get('/api/user/info').bearerToken(pending)
    later.assertStatus(200)
  })

  test('a current code turns it off; a wrong one does not', async ({ client, assert }) => {
    const customer = await UserFactory.create()
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    await secondFactor.enrolKnownSecret(customer.id, secret)
    const login = await client.post('/login').json({ email: customer.email, password: PASSWORD })
    const token = login.body().token
    await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(secret) })
      .bearerToken(token)
      .then((answer) => answer.assertStatus(200))

    clock.travel(30_000)
    const wrong = await client
      .post('/api/user/totp/remove')
      .json({ code: '000000' })
      .bearerToken(token)
    wrong.assertStatus(422)
    const still = await db.from('users').where('id', customer.id).first()
    assert.isNotNull(still.totp_confirmed_at)

    const off = await client
      .post('/api/user/totp/remove')
      .json({ code: secondFactor.codeAt(secret) })
      .bearerToken(token)
    off.assertStatus(200)
    const plain = await client.post('/login').json({ email: customer.email, password: PASSWORD })
    assert.notProperty(plain.body(), 'secondFactor')
    const audit = await AuditLog.query().where('action', 'factor.removed').firstOrFail()
    assert.equal(audit.subjectId, customer.uuid)
  })

  test('staff cannot turn their factor off', async ({ client, assert }) => {
    const owner = await UserFactory.merge({ role: 'owner' }).create()
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    await secondFactor.enrolKnownSecret(owner.id, secret)
    const login = await client.post('/login').json({ email: owner.email, password: PASSWORD })
    const token = login.body().token
    await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(secret) })
      .bearerToken(token)
    clock.travel(30_000)
    const refused = await client
      .post('/api/user/totp/remove')
      .json({ code: secondFactor.codeAt(secret) })
      .bearerToken(token)
    refused.assertStatus(409)
    assert.equal(refused.body().code, 'factor_required')
  })
})
