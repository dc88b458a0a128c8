import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import User from '#accounts/models/user'
import dropslotConfig from '#config/dropslot'
import AuditLog from '#core/models/audit_log'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_ADMIN_TOTP_SECRET } from '#database/seeders/demo_seeder'
import { secondFactor } from '#accounts/services/second_factor'
import { clock } from '#core/services/clock'
import { customerWithToken, pendingOrder, placeHolds, staffWithToken } from '#tests/helpers'
import Product from '#catalog/models/product'
import { orderSettlement } from '#payments/services/order_settlement'
import { sqlTime } from '#core/helpers/sql_time'
import { releasedProductWithOrders } from '#tests/support/release'
import type { StaffRole } from '#shared/staff_roles'

const PASSWORD = 'correct-horse-battery'
const REASON = 'Manual checkout for support ticket 42'

/** A staff member with the demo authenticator, signed in through both steps. */
async function signedInStaff(client: any, role: StaffRole = 'owner') {
  const user = await UserFactory.merge({ role }).create()
  await secondFactor.enrolKnownSecret(user.id, DEMO_ADMIN_TOTP_SECRET)
  const login = await client
    .post('/login')
    .header('user-agent', 'Console test agent')
    .json({ email: user.email, password: PASSWORD })
  const token = login.body().token as string
  const passed = await client
    .post('/api/session/totp')
    .json({ code: secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET) })
    .bearerToken(token)
  passed.assertStatus(200)
  return { user, token }
}

/** The next authenticator code (a code is used once: step past the last one first). */
function nextCode() {
  clock.travel(30_000)
  return secondFactor.codeAt(DEMO_ADMIN_TOTP_SECRET)
}

test.group('Staff access: step-up, idle sessions, lockout, sessions', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('card data needs a factor from the last 5 minutes; presenting it again opens it', async ({
    client,
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1)
    const { user, token } = await signedInStaff(client)
    const url = `/api/admin/aco/getJSON/${orders[0].publicId}`

    const fresh = await client
      .get(url)
      .header('user-agent', 'Ops browser 1.0')
      .qs({ reason: REASON })
      .bearerToken(token)
    fresh.assertStatus(200)

    clock.travel(4 * 60_000)
    const read = await client.get('/api/admin/orders').bearerToken(token)
    read.assertStatus(200)
    clock.travel(2 * 60_000)
    const stale = await client.get(url).qs({ reason: REASON }).bearerToken(token)
    stale.assertStatus(403)
    assert.equal(stale.body().code, 'step_up_required')
    // Reading still works: only the dangerous actions ask again.
    const stillReads = await client.get('/api/admin/orders').bearerToken(token)
    stillReads.assertStatus(200)

    const stepUp = await client
      .post('/api/session/totp')
      .json({ code: nextCode() })
      .bearerToken(token)
    stepUp.assertStatus(200)
    const again = await client.get(url).qs({ reason: REASON }).bearerToken(token)
    again.assertStatus(200)
    // Rows of this test's account only: processes of other tests commit rows of their own.
    const ownRows = (action: string) =>
      AuditLog.query().where('action', action).where('actor_user_id', user.id).orderBy('id')
    const reveals = await ownRows('order.aco_export')
    assert.lengthOf(reveals, 2)
    assert.equal(reveals[0].meta?.agent, 'Ops browser 1.0')
    const signIn = await ownRows('sign_in.password').firstOrFail()
    assert.equal(signIn.meta?.agent, 'Console test agent')
  })

  test('a step-up does not stretch the session past its 12 hours', async ({ client, assert }) => {
    const { token } = await signedInStaff(client)
    const before = await db.from('auth_access_tokens').orderBy('id', 'desc').first()
    clock.travel(10 * 60_000)
    const stepUp = await client
      .post('/api/session/totp')
      .json({ code: nextCode() })
      .bearerToken(token)
    stepUp.assertStatus(200)
    const after = await db.from('auth_access_tokens').where('id', before.id).first()
    assert.equal(String(after.expires_at), String(before.expires_at))
  })

  test('a support account cannot download card data; a finance one cannot mark', async ({
    client,
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1)
    const support = await staffWithToken('support')
    const card = await client
      .get(`/api/admin/aco/getJSON/${orders[0].publicId}`)
      .qs({ reason: REASON })
      .bearerToken(support.token)
    card.assertStatus(403)
    assert.equal(card.body().code, 'forbidden_for_role')
    const finance = await staffWithToken('finance')
    const mark = await client
      .post(`/api/admin/orders/${orders[0].publicId}/mark`)
      .json({ status: 'fail', reason: 'Sold out at the retailer' })
      .bearerToken(finance.token)
    assert.equal(mark.body().code, 'forbidden_for_role')
    const order = await db.from('orders').where('id', orders[0].id).first()
    assert.equal(order.status, orders[0].status)
  })

  test('a staff session ends after 15 minutes without a request', async ({ client, assert }) => {
    const { token } = await signedInStaff(client)
    clock.travel(14 * 60_000)
    const used = await client.get('/api/admin/orders').bearerToken(token)
    used.assertStatus(200)
    clock.travel(14 * 60_000)
    const usedAgain = await client.get('/api/admin/orders').bearerToken(token)
    usedAgain.assertStatus(200)
    clock.travel(15 * 60_000)
    const idle = await client.get('/api/admin/orders').bearerToken(token)
    idle.assertStatus(401)
    assert.equal(idle.body().code, 'unauthorized')
    // Customers' tokens do not end for idling.
    const customer = await customerWithToken()
    clock.travel(3 * 3_600_000)
    const info = await client.get('/api/user/info').bearerToken(customer.token)
    info.assertStatus(200)
  })

  test('ten failed sign-ins lock the address for 30 minutes, account or not', async ({
    client,
    assert,
  }) => {
    // The per-minute rate limit is another guard than the one under test here.
    const perMinute = dropslotConfig.rateLimits.loginPerMinute
    dropslotConfig.rateLimits.loginPerMinute = 1000
    try {
      const staff = await UserFactory.merge({ role: 'owner' }).create()
      const tryIt = (email: string, password: string) =>
        client.post('/login').json({ email, password })
      for (const email of [staff.email, 'nobody-here@example.test']) {
        for (let attempt = 1; attempt <= 10; attempt++) {
          const wrong = await tryIt(email, 'not-the-password')
          assert.equal(wrong.status(), 400, `${email} attempt ${attempt}`)
        }
        const locked = await tryIt(email, email === staff.email ? PASSWORD : 'anything-else')
        locked.assertStatus(429)
        assert.equal(locked.body().code, 'sign_in_locked')
        assert.equal(
          locked.body().error,
          'Too many failed sign-ins for this e-mail address. Try again in 30 minutes, or reset your password.'
        )
      }
      clock.travel(29 * 60_000)
      const stillLocked = await tryIt(staff.email, PASSWORD)
      stillLocked.assertStatus(429)
      clock.travel(2 * 60_000)
      const open = await tryIt(staff.email, PASSWORD)
      open.assertStatus(200)
      // Rows of this test's addresses only: processes of other tests commit rows of their own.
      const rows = await AuditLog.query().whereIn('action', ['sign_in.failed', 'sign_in.locked'])
      const audit = rows.filter((row) =>
        [staff.email, 'nobody-here@example.test'].includes(String(row.meta?.email))
      )
      assert.lengthOf(
        audit.filter((row) => row.action === 'sign_in.failed'),
        9
      )
      assert.lengthOf(
        audit.filter((row) => row.action === 'sign_in.locked'),
        2
      )
    } finally {
      dropslotConfig.rateLimits.loginPerMinute = perMinute
    }
  })

  test("staff see and end their own sessions; an owner anyone's", async ({ client, assert }) => {
    const support = await signedInStaff(client, 'support')
    const supportOther = await signedInStaff(client, 'support')
    const owner = await signedInStaff(client, 'owner')

    const own = await client.get('/api/admin/sessions').bearerToken(support.token)
    own.assertStatus(200)
    assert.lengthOf(own.body(), 1)
    assert.containsSubset(own.body()[0], {
      email: support.user.email,
      role: 'support',
      current: true,
      userAgent: 'Console test agent',
      secondFactorDone: true,
    })
    const listed = await client.get('/api/admin/sessions').bearerToken(owner.token)
    const others = listed.body()
    assert.includeMembers(
      others.map((row: { email: string }) => row.email),
      [support.user.email, supportOther.user.email, owner.user.email]
    )
    const otherId = others.find((row: any) => row.email === supportOther.user.email).id
    const refused = await client.delete(`/api/admin/sessions/${otherId}`).bearerToken(support.token)
    refused.assertStatus(404)
    const ended = await client.delete(`/api/admin/sessions/${otherId}`).bearerToken(owner.token)
    ended.assertStatus(200)
    const gone = await client.get('/api/admin/orders').bearerToken(supportOther.token)
    gone.assertStatus(401)
    const audit = await AuditLog.query().where('action', 'session.revoke').firstOrFail()
    assert.equal(audit.actorUserId, owner.user.id)
  })

  test("a role change is the owner's, with a fresh factor; a customer made staff signs in again", async ({
    client,
    assert,
  }) => {
    const customer = await customerWithToken()
    const support = await staffWithToken('support')
    const bySupport = await client
      .put(`/api/admin/customers/${customer.user.uuid}`)
      .json({ role: 'owner' })
      .bearerToken(support.token)
    bySupport.assertStatus(403)
    assert.equal(bySupport.body().code, 'forbidden_for_role')

    const owner = await signedInStaff(client, 'owner')
    clock.travel(6 * 60_000)
    const stale = await client
      .put(`/api/admin/customers/${customer.user.uuid}`)
      .json({ role: 'viewer' })
      .bearerToken(owner.token)
    assert.equal(stale.body().code, 'step_up_required')
    await client.post('/api/session/totp').json({ code: nextCode() }).bearerToken(owner.token)
    const made = await client
      .put(`/api/admin/customers/${customer.user.uuid}`)
      .json({ role: 'viewer' })
      .bearerToken(owner.token)
    made.assertStatus(200)
    assert.equal(made.body().role, 'viewer')
    // The customer's own token never saw a factor: it is gone, and it never opened the console.
    const oldToken = await client.get('/api/admin/orders').bearerToken(customer.token)
    oldToken.assertStatus(401)
    const madeStaff = await User.findOrFail(customer.user.id)
    assert.equal(madeStaff.role, 'viewer')
    // A support member may still change a customer's details (not the role).
    const details = await client
      .put(`/api/admin/customers/${customer.user.uuid}`)
      .json({ name: 'New Name', role: 'viewer' })
      .bearerToken(support.token)
    details.assertStatus(200)
  })

  test('a refund above $50 needs a fresh factor; a smaller one does not', async ({
    client,
    assert,
  }) => {
    const made = await pendingOrder({ product: { priceCents: 8_000 } })
    await placeHolds()
    await Product.query()
      .where('id', made.product.id)
      .update({ release_at: sqlTime(new Date(clock.nowMs() - 60_000)) })
    await orderSettlement.succeed(made.order, { confirmationNumber: 'RT-STEP-1' })
    const { token } = await signedInStaff(client, 'finance')
    clock.travel(6 * 60_000)
    const url = `/api/admin/orders/${made.order.publicId}/refund`
    const whole = await client.post(url).json({ reason: 'Customer complaint' }).bearerToken(token)
    whole.assertStatus(403)
    assert.equal(whole.body().code, 'step_up_required')
    const small = await client
      .post(url)
      .json({ amount: 10, reason: 'Goodwill, ticket 9' })
      .bearerToken(token)
    small.assertStatus(200)
    await client.post('/api/session/totp').json({ code: nextCode() }).bearerToken(token)
    const rest = await client.post(url).json({ reason: 'Customer complaint' }).bearerToken(token)
    rest.assertStatus(200)
    await made.order.refresh()
    assert.equal(made.order.refundedCents, 8_000)
    const refunds = await db
      .from('payment_ledger')
      .where('order_id', made.order.id)
      .where('kind', 'refund')
    assert.lengthOf(refunds, 2)
  })

  test('a full token that never presented a factor opens no staff route', async ({
    client,
    assert,
  }) => {
    const user = await UserFactory.merge({ role: 'owner' }).create()
    const token = await User.accessTokens.create(user)
    const answer = await client.get('/api/admin/orders').bearerToken(token.value!.release())
    answer.assertStatus(403)
    assert.equal(answer.body().code, 'second_factor_required')
  })
})
