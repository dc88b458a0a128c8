import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import AuditLog from '#core/models/audit_log'
import User from '#accounts/models/user'
import PromoCode from '#checkout/models/promo_code'
import NewsletterSubscriber from '#notifications/models/newsletter_subscriber'
import { adminWithToken, profilePayload } from '#tests/helpers'
import { profileService } from '#profiles/services/profile_service'
import { UserFactory } from '#database/factories/user_factory'
import { notifications } from '#notifications/services/notification_service'
import { templates } from '#notifications/templates'
import { makeOrder } from './fixtures.js'
import { withoutRandomIds } from '#tests/support/random_ids'

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value))

test.group('Admin customers', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('customers never show card data, passwords or tokens', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const customer = await UserFactory.apply('withBilling')
      .merge({
        cardLast4: '4242',
        cardBrand: 'visa',
        cardExpMonth: 12,
        cardExpYear: 2031,
        cardPaymentMethodId: 'pm_secret_123',
        gatewayCustomerId: 'cus_secret_123',
      })
      .create()
    await makeOrder({ user: customer })
    const list = await client
      .get(`/api/admin/customers?filter=${q({ q: customer.email })}`)
      .bearerToken(token)
    list.assertStatus(200)
    const show = await client.get(`/api/admin/customers/${customer.uuid}`).bearerToken(token)
    show.assertStatus(200)
    for (const body of [list.body()[0], show.body()]) {
      assert.equal(body.id, customer.uuid)
      assert.isTrue(body.cardOnFile)
      assert.equal(body.ordersCount, 1)
      const text = withoutRandomIds(JSON.stringify(body))
      for (const secret of ['4242', 'pm_secret', 'cus_secret', 'visa', '2031', 'password']) {
        assert.notInclude(text, secret)
      }
    }
  })

  test('one customer lists their profiles by name and town, without the card', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const customer = await UserFactory.create()
    const profile = await profileService.create(customer, profilePayload({ profileName: 'Office' }))
    const response = await client.get(`/api/admin/customers/${customer.uuid}`).bearerToken(token)
    response.assertStatus(200)
    assert.deepEqual(response.body().profiles, [
      {
        id: profile.publicId,
        profileName: 'Office',
        city: 'Springfield',
        state: 'IL',
        country: 'US',
      },
    ])
    assert.notInclude(withoutRandomIds(JSON.stringify(response.body())), '4242')
  })

  test('support edits name, phone and role; role changes are audited', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const customer = await UserFactory.create()
    const response = await client
      .put(`/api/admin/customers/${customer.uuid}`)
      .bearerToken(token)
      .json({ name: 'Sam Buyer', phone: '212-555-0199', role: 'support', email: 'hijack@x.test' })
    response.assertStatus(200)
    assert.equal(response.body().name, 'Sam Buyer')
    assert.equal(response.body().phone, '2125550199')
    assert.equal(response.body().role, 'support')
    assert.equal(response.body().email, customer.email, 'e-mail is not editable here')
    const audit = await AuditLog.query().where('action', 'customer.role_change').firstOrFail()
    assert.deepEqual((audit.meta!.changed as any).role, { from: 'customer', to: 'support' })

    const bad = await client
      .put(`/api/admin/customers/${customer.uuid}`)
      .bearerToken(token)
      .json({ phone: 'call me', role: 'root' })
    bad.assertStatus(422)
    assert.properties(bad.body().errors, ['phone', 'role'])
  })

  test('a staff member cannot change their own role', async ({ client, assert }) => {
    const { token, user } = await adminWithToken()
    const response = await client
      .put(`/api/admin/customers/${user.uuid}`)
      .bearerToken(token)
      .json({ role: 'customer' })
    response.assertStatus(422)
    assert.match(response.body().errors.role, /own role/)
    await user.refresh()
    assert.equal(user.role, 'owner')
  })

  test('a demoted admin loses the admin API at the next call', async ({ client }) => {
    const { token } = await adminWithToken()
    const other = await adminWithToken()
    const otherUser = await User.findOrFail(other.user.id)
    await client
      .put(`/api/admin/customers/${otherUser.uuid}`)
      .bearerToken(token)
      .json({ role: 'customer' })
      .then((response) => response.assertStatus(200))
    const after = await client.get('/api/admin/orders').bearerToken(other.token)
    after.assertStatus(403)
  })

  test('Delete removes a customer without active orders, audited; admins and active ones stay', async ({
    client,
    assert,
  }) => {
    const admin = await adminWithToken()
    const busy = await UserFactory.create()
    await makeOrder({ user: busy, status: 'pending' })
    const refused = await client
      .delete(`/api/admin/customers/${busy.uuid}`)
      .bearerToken(admin.token)
    refused.assertStatus(409)
    assert.equal(refused.body().code, 'active_orders')

    const self = await client
      .delete(`/api/admin/customers/${admin.user.uuid}`)
      .bearerToken(admin.token)
    self.assertStatus(409)
    assert.equal(self.body().code, 'admin_account')

    const done = await UserFactory.create()
    await makeOrder({ user: done, status: 'fail' })
    await profileService.create(done, profilePayload({ profileName: 'Gone' }))
    const deleted = await client
      .delete(`/api/admin/customers/${done.uuid}`)
      .bearerToken(admin.token)
    deleted.assertStatus(200)
    assert.equal(deleted.body().id, done.uuid)
    await done.refresh()
    assert.isNotNull(done.deletedAt)
    const shown = await client.get(`/api/admin/customers/${done.uuid}`).bearerToken(admin.token)
    assert.lengthOf(shown.body().profiles, 0)
    const audit = await AuditLog.query()
      .where('action', 'customer.delete')
      .where('subject_id', done.uuid)
      .firstOrFail()
    assert.equal(audit.actorUserId, admin.user.id)
    assert.equal(audit.meta?.via, 'admin')
  })
})

test.group('Admin promo codes', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('codes are stored upper-case and must be unique', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const created = await client
      .post('/api/admin/promo-codes')
      .bearerToken(token)
      .json({ code: ' launch15 ', percent: 15, maxUses: 100 })
    created.assertStatus(201)
    assert.equal(created.body().code, 'LAUNCH15')
    assert.isTrue(created.body().usableNow)

    const lookup = await client.get('/api/promoLookup?promoCode=launch15')
    lookup.assertStatus(200)

    const duplicate = await client
      .post('/api/admin/promo-codes')
      .bearerToken(token)
      .json({ code: 'Launch15', percent: 20 })
    duplicate.assertStatus(422)
    assert.equal(duplicate.body().errors.code, 'Another promo code already uses this code.')
  })

  test('percent is 1-100 and expiry comes after start', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    for (const percent of [0, 101, 12.5]) {
      const response = await client
        .post('/api/admin/promo-codes')
        .bearerToken(token)
        .json({ code: 'BAD', percent })
      assert.equal(response.status(), 422, String(percent))
      assert.property(response.body().errors, 'percent')
    }
    const window = await client.post('/api/admin/promo-codes').bearerToken(token).json({
      code: 'WINDOW',
      percent: 10,
      startsAt: '2030-01-02T00:00:00Z',
      expiresAt: '2030-01-01T00:00:00Z',
    })
    window.assertStatus(422)
    assert.equal(window.body().errors.expiresAt, 'The expiry must be after the start.')
    const badCode = await client
      .post('/api/admin/promo-codes')
      .bearerToken(token)
      .json({ code: 'no spaces!', percent: 10 })
    assert.property(badCode.body().errors, 'code')
  })

  test('edit and delete, both audited', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const promo = await PromoCode.create({ code: 'OLD', percent: 5, active: true, uses: 3 })
    const edited = await client
      .put(`/api/admin/promo-codes/${promo.id}`)
      .bearerToken(token)
      .json({ percent: 25, active: false, uses: 0 })
    edited.assertStatus(200)
    assert.equal(edited.body().percent, 25)
    assert.equal(edited.body().uses, 3, 'uses are counted by checkout, not edited')
    assert.isFalse(edited.body().usableNow)
    const removed = await client.delete(`/api/admin/promo-codes/${promo.id}`).bearerToken(token)
    removed.assertStatus(200)
    assert.isNull(await PromoCode.find(promo.id))
    const entries = await AuditLog.query()
      .where('subject_type', 'promo_code')
      .where('subject_id', String(promo.id))
      .orderBy('id')
    const actions = entries.map((entry) => entry.action)
    assert.deepEqual(actions, ['promo.update', 'promo.delete'])
  })
})

test.group('Admin subscribers, e-mails and audit log', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('subscribers: list, filter, delete', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    // Their own domain: sign-ups other tests committed are not this list's business.
    await client
      .get('/api/addEmail?email=fan@subscribers-list.test')
      .then((r) => r.assertStatus(200))
    const gone = await NewsletterSubscriber.create({
      email: 'left@subscribers-list.test',
      source: 'home',
      unsubscribedAt: null,
    })
    const list = await client
      .get(`/api/admin/subscribers?filter=${q({ q: '@subscribers-list.test' })}`)
      .bearerToken(token)
    assert.equal(list.header('content-range'), 'subscribers 0-1/2')
    const searched = await client
      .get(`/api/admin/subscribers?filter=${q({ q: 'fan@subscribers-list' })}`)
      .bearerToken(token)
    assert.equal(searched.body()[0].email, 'fan@subscribers-list.test')
    assert.isTrue(searched.body()[0].subscribed)

    const removed = await client.delete(`/api/admin/subscribers/${gone.id}`).bearerToken(token)
    removed.assertStatus(200)
    assert.isNull(await NewsletterSubscriber.find(gone.id))
  })

  test('subscribers: CSV export follows the filter and defuses formulas', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    await NewsletterSubscriber.createMany([
      { email: 'a@subscribers-csv.test', source: 'home', unsubscribedAt: null },
      { email: '=cmd@subscribers-csv.test', source: 'home', unsubscribedAt: null },
      { email: 'b@subscribers-csv.test', source: 'footer', unsubscribedAt: null },
    ])
    const newestAudit = await AuditLog.query().orderBy('id', 'desc').first()
    const lastAudit = newestAudit?.id ?? 0
    const filter = q({ source: 'home', q: '@subscribers-csv.test' })
    const response = await client
      .get(`/api/admin/subscribers/export.csv?filter=${filter}`)
      .bearerToken(token)
    response.assertStatus(200)
    assert.include(response.header('content-type'), 'text/csv')
    assert.match(response.header('content-disposition') ?? '', /attachment; filename="subscribers-/)
    const lines = response.text().trim().split('\n')
    assert.equal(lines[0], 'email,source,subscribed,subscribed_at,unsubscribed_at')
    assert.lengthOf(lines, 3)
    assert.isTrue(lines.some((line) => line.startsWith("'=cmd@subscribers-csv.test,home,yes")))
    assert.isFalse(lines.some((line) => line.startsWith('b@subscribers-csv.test')))
    const exported = await AuditLog.query()
      .where('id', '>', lastAudit)
      .where('action', 'subscriber.export')
    assert.lengthOf(exported, 1)
  })

  test('e-mails: list and show; reset links stay hidden', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const customer = await UserFactory.create()
    await notifications.send({
      to: customer.email,
      template: 'password_reset',
      message: templates.passwordReset('http://localhost/reset?token=SECRET-RESET-TOKEN', 60),
      userId: customer.id,
    })
    await notifications.send({
      to: customer.email,
      template: 'welcome',
      message: templates.welcome('Sam'),
      userId: customer.id,
    })
    const list = await client
      .get(`/api/admin/emails?filter=${q({ template: 'password_reset' })}`)
      .bearerToken(token)
    assert.equal(list.header('content-range'), 'emails 0-0/1')
    assert.notProperty(list.body()[0], 'textBody')
    assert.equal(list.body()[0].customerId, customer.uuid)
    const show = await client.get(`/api/admin/emails/${list.body()[0].id}`).bearerToken(token)
    show.assertStatus(200)
    assert.include(show.body().textBody, 'reset?token=[hidden]')
    assert.notInclude(JSON.stringify(show.body()), 'SECRET-RESET-TOKEN')

    const byCustomer = await client
      .get(`/api/admin/emails?filter=${q({ customerId: customer.uuid })}`)
      .bearerToken(token)
    assert.lengthOf(byCustomer.body(), 2)
  })

  test('audit records never keep card data, whatever a caller passes', async ({ assert }) => {
    const { auditLog } = await import('#core/services/audit_log_service')
    const entry = await auditLog.record({
      actor: { label: 'cli:ops' },
      action: 'order.aco_export',
      reason: 'customer asked, card 4000 0566 5566 5556',
      meta: {
        promoCode: 'DROP10',
        format: 'aycd',
        card: { number: '4242424242424242', code: '123' },
        cvv: '999',
        note: 'pan 5555555555554444 in text',
        orderCount: 12345678,
      },
    })
    await entry.refresh()
    const stored = JSON.stringify({ reason: entry.reason, meta: entry.meta })
    for (const secret of ['4242424242424242', '5555555555554444', '4000 0566 5566 5556', '999']) {
      assert.notInclude(stored, secret)
    }
    assert.equal(entry.meta!.promoCode, 'DROP10')
    assert.equal(entry.meta!.card, '[redacted]')
    assert.equal(entry.meta!.note, 'pan **** 4444 in text')
    assert.equal(entry.meta!.orderCount, 12345678)
    assert.equal(entry.actorLabel, 'cli:ops')
  })

  test('audit log: list and filter, read-only', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    await client
      .post('/api/admin/promo-codes')
      .bearerToken(token)
      .json({ code: 'AUDITED', percent: 10 })
    const list = await client
      .get(`/api/admin/audit-log?filter=${q({ action: 'promo.create' })}`)
      .bearerToken(token)
    list.assertStatus(200)
    assert.lengthOf(list.body(), 1)
    assert.equal(list.body()[0].meta.promoCode, 'AUDITED')
    const show = await client.get(`/api/admin/audit-log/${list.body()[0].id}`).bearerToken(token)
    show.assertStatus(200)
    for (const method of ['put', 'delete'] as const) {
      const write = await client[method](`/api/admin/audit-log/${list.body()[0].id}`).bearerToken(
        token
      )
      write.assertStatus(404)
    }
  })
})

test.group('Admin dashboard', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('shows upcoming releases with fill, orders by status and fees on success', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { ProductFactory } = await import('#database/factories/product_factory')
    const { DateTime } = await import('luxon')
    const product = await ProductFactory.merge({
      totalStock: 200,
      stockTaken: 150,
      releaseAt: DateTime.now().plus({ hours: 5 }),
    }).create()
    await makeOrder({ product, status: 'pending' })
    await makeOrder({ product, status: 'success', priceCents: 2250 })
    await makeOrder({ status: 'success', priceCents: 1000 })
    await makeOrder({ status: 'fail' })
    const response = await client.get('/api/admin/dashboard').bearerToken(token)
    response.assertStatus(200)
    const body = response.body()
    const upcoming = body.upcoming.find((row: { id: number }) => row.id === product.id)
    assert.equal(upcoming.fill, 0.75)
    assert.equal(upcoming.activeOrders, 2)
    assert.deepEqual(body.ordersByStatus, {
      entered: 0,
      pending: 1,
      processing: 0,
      success: 2,
      fail: 1,
      cancelled: 0,
      retailer_cancelled: 0,
    })
    assert.equal(body.fees.bookedOnSuccessCents, 3250)
    // Marked successful straight in the table: nothing captured, both fees still due.
    assert.equal(body.fees.capturedCents, 0)
    assert.equal(body.fees.dueCents, 3250)
    assert.equal(body.fees.dueOrders, 2)
    assert.notProperty(body.unavailable, 'fees.capturedCents')
    assert.lengthOf(body.ordersByDay, 14)
    const today = body.ordersByDay[13]
    assert.equal(today.success, 2)
  })
})
