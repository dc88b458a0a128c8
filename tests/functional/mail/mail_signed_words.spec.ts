import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import type Order from '#orders/models/order'
import { mailIntake } from '#mail/services/mail_intake'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { orderNumber } from '#orders/services/order_numbers'
import { adminWithToken } from '#tests/helpers'
import {
  retailerMail,
  sign,
  signedRetailerMail,
  SIGNING_DOMAINS,
  useMailIntake,
  ordersAtTheBot,
} from '#tests/support/mail'

/*
| A retailer's e-mail counts only as far as the retailer signed it. Each case takes a genuine,
| signed Kith message and changes what the signature does not cover, as a sender who holds one
| real Kith e-mail could.
*/

const submitted = (count: number) =>
  ordersAtTheBot(count, { priceCents: 3500 }).then(({ orders }) => orders)

const money = async (order: Order) => {
  await order.refresh()
  const rows = await db
    .from('payment_ledger')
    .where('order_id', order.id)
    .whereIn('kind', ['fee', 'refund'])
  return { status: order.status, fees: rows.length }
}

/** The order, succeeded by a genuine Kith confirmation for the retailer's order `number`. */
async function succeeded(order: Order, number: string) {
  const to = orderMailAddress.of(order)!
  const report = await mailIntake.receive(
    await signedRetailerMail({ retailer: 'kith', kind: 'confirmation', to, orderNumber: number }),
    'file'
  )
  if (report.action !== 'success') throw new Error(`setup: ${report.action} ${report.reason}`)
  return to
}

const withHeader = (message: Buffer, header: string) =>
  Buffer.concat([Buffer.from(`${header}\r\n`), message])

test.group('Mail intake: only signed words count', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    return () => env.set('MAIL_INTAKE_DOMAIN', '')
  })

  test('an unsigned Cc or a second To naming an order’s address moves nothing', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const address = orderMailAddress.of(order)!
    const stranger = await signedRetailerMail({
      retailer: 'kith',
      kind: 'confirmation',
      to: 'shopper@example.net',
    })
    const cc = await mailIntake.receive(withHeader(stranger, `Cc: ${address}`), 'smtp')
    assert.equal(cc.action, 'review')
    assert.match(cc.reason ?? '', /No order has the address/)

    const secondTo = await signedRetailerMail({
      retailer: 'kith',
      kind: 'confirmation',
      to: 'shopper@example.net',
    })
    const to = await mailIntake.receive(withHeader(secondTo, `To: ${address}`), 'smtp', {
      to: [address],
    })
    assert.equal(to.action, 'review')
    assert.match(to.reason ?? '', /more than one To header/)
    assert.deepEqual(await money(order), { status: 'processing', fees: 0 })
  })

  test('a second Subject above a signed confirmation cannot make it a cancellation', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = await succeeded(order, 'KH-1001')
    const confirmation = await signedRetailerMail({
      retailer: 'kith',
      kind: 'confirmation',
      to,
      orderNumber: 'KH-1001',
    })
    const forged = withHeader(confirmation, 'Subject: Order #KH-1001 has been canceled')
    const report = await mailIntake.receive(forged, 'smtp')
    assert.equal(report.action, 'review')
    assert.match(report.reason ?? '', /more than one Subject header/)
    assert.deepEqual(await money(order), { status: 'success', fees: 1 })
  })

  test('a signature over part of the body (l=) does not pass: text after it is unsigned', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = await succeeded(order, 'KH-1002')
    const body = 'Kith\r\nORDER #KH-1002\r\n\r\nThank you for shopping with Kith.\r\n'
    const update =
      `From: Kith <orders@kith.com>\r\nTo: ${to}\r\nSubject: Your Kith order\r\n` +
      `Date: ${new Date().toUTCString()}\r\nMessage-ID: <update-1002@kith.com>\r\n\r\n${body}`
    const signed = await sign(update, SIGNING_DOMAINS.kith, { bodyLength: body.length })
    const appended = Buffer.concat([signed, Buffer.from('Order #KH-1002 has been canceled.\r\n')])
    const report = await mailIntake.receive(appended, 'smtp')
    assert.equal(report.action, 'review')
    assert.match(report.reason ?? '', /covers only part of the body/)
    assert.deepEqual(await money(order), { status: 'success', fees: 1 })
  })

  test('the kind and the dedupe key come only from signed headers', async ({ assert }) => {
    const [first, second] = await submitted(2)
    const firstTo = orderMailAddress.of(first)!
    // Message-ID left out of the signature: nothing can key or act on it.
    const noMessageId = await sign(
      await retailerMail({ retailer: 'kith', kind: 'confirmation', to: firstTo }),
      SIGNING_DOMAINS.kith,
      { headerList: 'From:To:Subject:Date' }
    )
    const keyless = await mailIntake.receive(noMessageId, 'smtp')
    assert.equal(keyless.action, 'review')
    assert.match(keyless.reason ?? '', /does not cover the Message-ID/)

    // Subject left out of the signature: a cancelling Subject is not read, the signed body is.
    const mail = await retailerMail({ retailer: 'kith', kind: 'confirmation', to: firstTo })
    const unsignedSubject = await sign(
      mail.replace(/^Subject: .*$/m, 'Subject: Order #KH-9 has been canceled'),
      SIGNING_DOMAINS.kith,
      { headerList: 'From:To:Message-ID:Date' }
    )
    const report = await mailIntake.receive(unsignedSubject, 'smtp')
    // The whole report on a failure: which check refused it, or what the parser read.
    assert.deepInclude(report, { kind: 'confirmation', action: 'success' }, JSON.stringify(report))

    // A signature that does not cover To matches no order, whatever the To says.
    const unsignedTo = await sign(
      await retailerMail({
        retailer: 'kith',
        kind: 'confirmation',
        to: orderMailAddress.of(second)!,
      }),
      SIGNING_DOMAINS.kith,
      { headerList: 'From:Subject:Message-ID:Date' }
    )
    const toReport = await mailIntake.receive(unsignedTo, 'smtp')
    assert.equal(toReport.action, 'review')
    assert.match(toReport.reason ?? '', /does not cover the To header/)
    assert.deepEqual(await money(second), { status: 'processing', fees: 0 })
  })

  test('a cancellation of another retailer order number than the order’s goes to review', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = await succeeded(order, 'KH-1003')
    const report = await mailIntake.receive(
      await signedRetailerMail({ retailer: 'kith', kind: 'cancelled', to, orderNumber: 'KH-2004' }),
      'smtp'
    )
    assert.equal(report.action, 'review')
    assert.match(report.reason ?? '', /KH-2004.*KH-1003/)
    assert.deepEqual(await money(order), { status: 'success', fees: 1 })
  })

  test('a hostile body from an unsigned “Kith” is read at once and moves nothing', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = orderMailAddress.of(order)!
    const spaces = ' '.repeat(4000)
    const lines = [
      `Order #KH-5 confirmed`,
      `a${spaces}×${spaces}`,
      `${' '.repeat(300_000)}`,
      ...Array.from({ length: 120 }, () => `Total:${spaces}$`),
      `Tracking number${' '.repeat(200_000)}`,
    ]
    const hostile =
      `From: Kith <orders@kith.com>\r\nTo: ${to}\r\nSubject: Order #KH-5 confirmed\r\n` +
      `Message-ID: <hostile-5@kith.com>\r\n\r\n${lines.join('\r\n')}\r\n`
    const unsigned = await mailIntake.receive(Buffer.from(hostile), 'file')
    assert.equal(unsigned.action, 'review')
    assert.match(unsigned.reason ?? '', /not signed/)
    // Signed by Kith, the same text is parsed within its caps: a success, not a hang.
    const signed = await mailIntake.receive(
      await sign(hostile.replace('hostile-5', 'hostile-6'), SIGNING_DOMAINS.kith),
      'file'
    )
    assert.equal(signed.action, 'success', JSON.stringify(signed))
    assert.deepEqual(await money(order), { status: 'success', fees: 1 })
  }).timeout(15_000)
})

test.group('Mail intake: one message, one action, ever', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    return () => env.set('MAIL_INTAKE_DOMAIN', '')
  })

  test('two assigns of one message at once act once; the other gets 409', async ({
    client,
    assert,
  }) => {
    const [first, second] = await submitted(2)
    const { token } = await adminWithToken()
    const lost = await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'kith',
        kind: 'confirmation',
        to: 'ds-nobody0000@in.dropslot.test',
        orderNumber: 'KH-3001',
      }),
      'file'
    )
    assert.equal(lost.action, 'review')
    const assign = (order: Order) =>
      client
        .post(`/api/admin/mail-messages/${lost.id}/assign`)
        .json({ orderId: order.publicId, reason: 'The bot typed the address wrong' })
        .bearerToken(token)
    const answers = await Promise.all([assign(first), assign(second)])
    assert.sameMembers(
      answers.map((answer) => answer.status()),
      [200, 409]
    )
    const acted = answers.find((answer) => answer.status() === 200)!
    assert.equal(acted.body().action, 'success')
    const results = [await money(first), await money(second)]
    assert.sameDeepMembers(results, [
      { status: 'success', fees: 1 },
      { status: 'processing', fees: 0 },
    ])
    const audit = await db.from('audit_logs').where('action', 'mail.assign')
    assert.lengthOf(audit, 1)
    assert.equal(audit[0].reason, 'The bot typed the address wrong')
  })

  test('assign needs a reason, and a message signed to another order stays with it', async ({
    client,
    assert,
  }) => {
    const [first, second] = await submitted(2)
    const { token } = await adminWithToken()
    // Signed for the first order, refused there (another size): in review.
    const message = await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'kith',
        kind: 'confirmation',
        to: orderMailAddress.of(first)!,
        size: '12',
      }),
      'file'
    )
    assert.equal(message.action, 'review')
    const reasonless = await client
      .post(`/api/admin/mail-messages/${message.id}/assign`)
      .json({ orderId: second.publicId })
      .bearerToken(token)
    reasonless.assertStatus(422)
    const elsewhere = await client
      .post(`/api/admin/mail-messages/${message.id}/assign`)
      .json({ orderId: second.publicId, reason: 'Looks like the same customer' })
      .bearerToken(token)
    elsewhere.assertStatus(200)
    assert.equal(elsewhere.body().action, 'review')
    assert.include(elsewhere.body().reason, orderNumber(first.id))
    assert.deepEqual(await money(second), { status: 'processing', fees: 0 })
  })

  test('a message that acted once never acts again through the review list', async ({
    client,
    assert,
  }) => {
    const [first, second] = await submitted(2)
    const { token } = await adminWithToken()
    const cancellation = await signedRetailerMail({
      retailer: 'kith',
      kind: 'confirmation',
      to: 'shopper@example.net',
      orderNumber: 'KH-3002',
    })
    // The same signed message twice: two rows in review (a message in review keeps no key).
    const one = await mailIntake.receive(cancellation, 'file')
    const two = await mailIntake.receive(cancellation, 'smtp')
    assert.equal(one.action, 'review')
    assert.equal(two.action, 'review')
    const assign = (id: string, order: Order) =>
      client
        .post(`/api/admin/mail-messages/${id}/assign`)
        .json({ orderId: order.publicId, reason: 'The bot typed the address wrong' })
        .bearerToken(token)
    const acted = await assign(one.id, first)
    assert.equal(acted.body().action, 'success')
    const copy = await assign(two.id, second)
    copy.assertStatus(200)
    assert.equal(copy.body().action, 'duplicate')
    assert.deepEqual(await money(second), { status: 'processing', fees: 0 })
  })
})
