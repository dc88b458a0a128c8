import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import Order from '#orders/models/order'
import EmailMessage from '#notifications/models/email_message'
import AuditLog from '#core/models/audit_log'
import { emailDelivery } from '#notifications/services/email_delivery'
import { releaseRunner } from '#release/services/release_runner'
import type { CheckoutEngine } from '#release/services/checkout_engines'
import { SmtpSink } from '#tests/support/smtp_sink'
import { releasedProductWithOrders } from '#tests/support/release'
import { adminWithToken, customerWithToken } from '#tests/helpers'

const SMTP_PORT = env.get('SMTP_PORT', 2526)

/** The first order succeeds, the others fail. */
function firstWins(): CheckoutEngine {
  let calls = 0
  return {
    name: 'simulator',
    needsCardData: false,
    submit: async () =>
      calls++ === 0
        ? { status: 'success', confirmationNumber: 'CONF-1' }
        : { status: 'fail', reason: 'Sold out.' },
  }
}

test.group('Release: admin calls and order e-mails', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('outcome e-mails go out over SMTP with plain and HTML parts and no card data', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2, { priceCents: 4000 })
    await releaseRunner.run({ productId: product.id, engine: firstWins() })
    const sink = new SmtpSink()
    await sink.listen(SMTP_PORT)
    try {
      await emailDelivery.deliverDue()
    } finally {
      await sink.close()
    }
    const byRecipient = (email: string) =>
      sink.received
        .filter((mail) => mail.to.includes(email))
        .map((mail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1])
    assert.sameMembers(byRecipient(orders[0].email), [
      `Your slot for ${product.title} is secured`,
      `You got it: ${product.title}`,
    ])
    assert.sameMembers(byRecipient(orders[1].email), [
      `Your slot for ${product.title} is secured`,
      `We could not get ${product.title} this time`,
    ])
    const secured = sink.received.find((mail) => mail.raw.includes('CONF-1'))!
    assert.include(secured.raw, '$40.00')
    for (const mail of sink.received) {
      assert.include(mail.raw, 'text/plain')
      assert.include(mail.raw, 'text/html')
      assert.include(mail.raw, 'support@dropslot.test')
      assert.notMatch(mail.raw, /4242\s?4242\s?4242\s?4242/)
      assert.notMatch(mail.raw, /\bCVV\b|\bCVC\b/i)
    }
  })

  test('resendEmail and resendAll write new, marked outbox rows; customers are refused', async ({
    client,
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2)
    await releaseRunner.run({ productId: product.id, engine: firstWins() })
    const admin = await adminWithToken()
    const customer = await customerWithToken()

    const refused = await client
      .get(`/api/admin/orders/resendEmail/${orders[0].publicId}`)
      .bearerToken(customer.token)
    refused.assertStatus(403)

    const one = await client
      .get(`/api/admin/orders/resendEmail/${orders[0].publicId}`)
      .bearerToken(admin.token)
    one.assertStatus(200)
    one.assertBodyContains({ success: true, template: 'order_secured' })
    const resent = await EmailMessage.findOrFail(one.body().messageId)
    assert.match(resent.subject, /^\[Resent\] You got it/)
    assert.equal(resent.toAddress, orders[0].email)

    const missing = await client
      .get('/api/admin/orders/resendEmail/00000000-0000-4000-8000-000000000000')
      .bearerToken(admin.token)
    missing.assertStatus(404)

    const unscoped = await client.get('/api/admin/orders/resendAll').bearerToken(admin.token)
    unscoped.assertStatus(422)
    const all = await client
      .get('/api/admin/orders/resendAll')
      .qs({ productId: product.id })
      .bearerToken(admin.token)
    all.assertStatus(200)
    all.assertBodyContains({ success: true, sent: 2 })
    const secured = await EmailMessage.query()
      .where('order_id', orders[0].id)
      .where('template', 'order_secured')
    assert.lengthOf(secured, 3)
    const failed = await EmailMessage.query()
      .where('order_id', orders[1].id)
      .where('template', 'order_failed')
    assert.deepEqual(
      failed.map((email) => email.subject.startsWith('[Resent]')),
      [false, true]
    )
    const audit = await AuditLog.query().where('action', 'order.email_resend_all').first()
    assert.equal(audit?.actorUserId, admin.user.id)
  })

  test('aco/getJSON needs a reason, audits the reveal and returns an attachment', async ({
    client,
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1)
    const admin = await adminWithToken()
    const url = `/api/admin/aco/getJSON/${orders[0].publicId}`

    const noReason = await client.get(url).bearerToken(admin.token)
    noReason.assertStatus(400)
    noReason.assertBodyContains({ code: 'reason_required' })
    const badFormat = await client
      .get(url)
      .qs({ format: 'xml', reason: 'bot setup' })
      .bearerToken(admin.token)
    badFormat.assertStatus(400)
    assert.lengthOf(await AuditLog.query().where('action', 'order.aco_export'), 0)

    const json = await client
      .get(url)
      .qs({ reason: 'Manual checkout for support ticket 42' })
      .bearerToken(admin.token)
    json.assertStatus(200)
    assert.match(json.header('content-disposition') ?? '', /^attachment; filename="aco-.*\.json"$/)
    assert.include(json.text(), '4242424242424242')

    const csv = await client
      .get(url)
      .qs({ format: 'csv', reason: 'Manual checkout for support ticket 42' })
      .bearerToken(admin.token)
    csv.assertStatus(200)
    assert.match(csv.header('content-disposition') ?? '', /\.csv"$/)

    const audits = await AuditLog.query().where('action', 'order.aco_export').orderBy('id', 'asc')
    assert.lengthOf(audits, 2)
    assert.equal(audits[0].actorUserId, admin.user.id)
    assert.equal(audits[0].reason, 'Manual checkout for support ticket 42')
    assert.equal(audits[0].subjectId, orders[0].publicId)
    assert.notInclude(JSON.stringify(audits[0].serialize()), '4242424242424242')
  })

  test('release-runs list and show speak the console REST dialect', async ({ client, assert }) => {
    const { product } = await releasedProductWithOrders(2)
    const first = await releaseRunner.run({ productId: product.id, engine: firstWins() })
    await releaseRunner.run({ productId: product.id, dryRun: true })
    const admin = await adminWithToken()

    const list = await client
      .get('/api/admin/release-runs')
      .qs({ sort: JSON.stringify(['id', 'ASC']), range: '[0,9]', filter: '{"dryRun":false}' })
      .bearerToken(admin.token)
    list.assertStatus(200)
    assert.equal(list.header('content-range'), 'release-runs 0-0/1')
    assert.containsSubset(list.body()[0], {
      id: first.runId,
      status: 'finished',
      engine: 'simulator',
      ordersSubmitted: 2,
      ordersSucceeded: 1,
      ordersFailed: 1,
      productId: product.id,
      dryRun: false,
    })
    assert.isString(list.body()[0].startedAt)
    assert.isString(list.body()[0].finishedAt)

    const show = await client.get(`/api/admin/release-runs/${first.runId}`).bearerToken(admin.token)
    show.assertStatus(200)
    show.assertBodyContains({ id: first.runId })
    const bad = await client
      .get('/api/admin/release-runs')
      .qs({ sort: '["nope","ASC"]' })
      .bearerToken(admin.token)
    bad.assertStatus(400)
    const none = await client.get('/api/admin/release-runs/999999').bearerToken(admin.token)
    none.assertStatus(404)
    const won = await Order.query().where('product_id', product.id).where('status', 'success')
    assert.lengthOf(won, 1)
  })
})
