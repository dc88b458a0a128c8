import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { sampleUrl, staffRoutes } from '#tests/support/routes'
import db from '@adonisjs/lucid/services/db'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_ADMIN_TOTP_SECRET } from '#database/seeders/demo_seeder'
import { secondFactor } from '#accounts/services/second_factor'
import { clock } from '#core/services/clock'

const PASSWORD = 'correct-horse-battery'

test.group('Staff sign-in: a second factor before anything else', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a password-only staff token opens no admin route, nor any signed-in route', async ({
    client,
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    const login = await client.post('/login').json({ email: admin.email, password: PASSWORD })
    login.assertStatus(200)
    assert.containsSubset(login.body(), { secondFactor: 'enrol', methods: ['totp'] })
    const token = login.body().token
    const checked: string[] = []
    for (const route of staffRoutes()) {
      for (const method of route.methods.filter((item) => item !== 'HEAD')) {
        const request = client.request(sampleUrl(route), method).bearerToken(token)
        const answer = await (method === 'GET' ? request : request.json({ any: 'body' }))
        assert.equal(answer.status(), 403, `${method} ${route.pattern}`)
        assert.equal(answer.body().code, 'second_factor_required', `${method} ${route.pattern}`)
        checked.push(`${method} ${route.pattern}`)
      }
    }
    assert.isAtLeast(checked.length, 40)
    for (const url of ['/api/user/info', '/api/user/profiles']) {
      const answer = await client.get(url).bearerToken(token)
      assert.equal(answer.body().code, 'second_factor_required', url)
    }
  })

  test('a new admin enrols an authenticator, then the same token opens the console', async ({
    client,
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    const login = await client.post('/login').json({ email: admin.email, password: PASSWORD })
    const token = login.body().token
    const enrol = await client.post('/api/session/totp/enrol').bearerToken(token)
    enrol.assertStatus(200)
    const { secret, otpauthUrl } = enrol.body()
    assert.match(otpauthUrl, /^otpauth:\/\/totp\/Dropslot:.*secret=/)
    const stored = await db.from('users').where('id', admin.id).first()
    assert.notInclude(String(stored.totp_secret_sealed), secret)

    const wrong = await client.post('/api/session/totp').json({ code: '000000' }).bearerToken(token)
    wrong.assertStatus(422)
    const right = await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(secret) })
      .bearerToken(token)
    right.assertStatus(200)
    assert.lengthOf(right.body().recoveryCodes, 10)
    const orders = await client.get('/api/admin/orders').bearerToken(token)
    orders.assertStatus(200)

    // Enrolled now: a second enrolment is refused, the next sign-in asks for the code.
    const again = await client.post('/api/session/totp/enrol').bearerToken(token)
    again.assertStatus(409)
    const next = await client.post('/login').json({ email: admin.email, password: PASSWORD })
    assert.containsSubset(next.body(), { secondFactor: 'required', methods: ['totp', 'recovery'] })
    const audit = await db.from('audit_logs').where('subject_id', admin.uuid).orderBy('id')
    assert.includeMembers(
      audit.map((row) => row.action),
      ['factor.enrol_started', 'factor.failed', 'factor.enrolled']
    )
  })

  test('a code is used once, and only within its 30-second window', async ({ client, assert }) => {
    const admin = await UserFactory.apply('admin').create()
    await secondFactor.enrolKnownSecret(admin.id, DEMO_ADMIN_TOTP_SECRET)
    clock.freeze(Date.parse('2026-11-27T06:00:05Z'))
    const signIn = async () => {
      const answer = await client.post('/login').json({ email: admin.email, password: PASSWORD })
      return answer.body().token as string
    }
    const code = secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET)
    const first = await signIn()
    const used = await client.post('/api/session/totp').json({ code }).bearerToken(first)
    used.assertStatus(200)

    // The same code again, in the same window, from a second sign-in: refused.
    const second = await signIn()
    const replay = await client.post('/api/session/totp').json({ code }).bearerToken(second)
    replay.assertStatus(422)
    assert.equal(replay.body().code, 'code_used')
    const stillPending = await client.get('/api/admin/orders').bearerToken(second)
    assert.equal(stillPending.body().code, 'second_factor_required')

    // A code of two minutes ago is out of its window; the current one works.
    clock.travel(120_000)
    const stale = secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET, clock.nowMs() - 120_000)
    const expired = await client.post('/api/session/totp').json({ code: stale }).bearerToken(second)
    expired.assertStatus(422)
    assert.equal(expired.body().code, 'invalid_code')
    const current = await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET) })
      .bearerToken(second)
    current.assertStatus(200)
    const opened = await client.get('/api/admin/orders').bearerToken(second)
    opened.assertStatus(200)
  })

  test('a recovery code works once; a pending token expires in 10 minutes', async ({ client }) => {
    const admin = await UserFactory.apply('admin').create()
    await secondFactor.enrolKnownSecret(admin.id, DEMO_ADMIN_TOTP_SECRET)
    const [code] = await secondFactor.newRecoveryCodes(admin.id)
    const signIn = async () => {
      const answer = await client.post('/login').json({ email: admin.email, password: PASSWORD })
      return answer.body().token as string
    }
    const token = await signIn()
    const used = await client.post('/api/session/recovery').json({ code }).bearerToken(token)
    used.assertStatus(200)
    const opened = await client.get('/api/admin/orders').bearerToken(token)
    opened.assertStatus(200)
    const other = await signIn()
    const again = await client.post('/api/session/recovery').json({ code }).bearerToken(other)
    again.assertStatus(422)

    clock.travel(11 * 60_000)
    const late = await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET) })
      .bearerToken(other)
    late.assertStatus(401)
  })

  test('a staff session lasts 12 hours of the product clock after its factor', async ({
    client,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    await secondFactor.enrolKnownSecret(admin.id, DEMO_ADMIN_TOTP_SECRET)
    clock.travel(3 * 86_400_000)
    const login = await client.post('/login').json({ email: admin.email, password: PASSWORD })
    const token = login.body().token
    const passed = await client
      .post('/api/session/totp')
      .json({ code: secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET) })
      .bearerToken(token)
    passed.assertStatus(200)
    // Used every 14 minutes (never idle for 15), it stays open for 12 hours, and no longer.
    for (let elapsed = 0; elapsed + 14 * 60_000 < 12 * 3_600_000; elapsed += 14 * 60_000) {
      clock.travel(14 * 60_000)
      const stillOpen = await client.get('/api/admin/orders').bearerToken(token)
      stillOpen.assertStatus(200)
    }
    clock.travel(14 * 60_000)
    const ended = await client.get('/api/admin/orders').bearerToken(token)
    ended.assertStatus(401)
  })

  test('customers sign in as before: one step, a full token', async ({ client, assert }) => {
    const customer = await UserFactory.create()
    const login = await client.post('/login').json({ email: customer.email, password: PASSWORD })
    login.assertStatus(200)
    assert.notProperty(login.body(), 'secondFactor')
    const info = await client.get('/api/user/info').bearerToken(login.body().token)
    info.assertStatus(200)
  })

  test('a reset removes the factors and every session; the account enrols again', async ({
    client,
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    await secondFactor.enrolKnownSecret(admin.id, DEMO_ADMIN_TOTP_SECRET)
    const first = await client.post('/login').json({ email: admin.email, password: PASSWORD })
    await secondFactor.reset(admin.id)
    const gone = await client.post('/api/session/totp/enrol').bearerToken(first.body().token)
    gone.assertStatus(401)
    const login = await client.post('/login').json({ email: admin.email, password: PASSWORD })
    assert.equal(login.body().secondFactor, 'enrol')
  })
})
