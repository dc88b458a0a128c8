import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { orderOutcome } from '#release/services/order_outcome'
import { acoExportService } from '#release/services/aco_export_service'
import { mailIntake } from '#mail/services/mail_intake'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { orderNumber } from '#orders/services/order_numbers'
import {
  retailerMail,
  sign,
  signedRetailerMail,
  SIGNING_DOMAINS,
  useMailIntake,
  ordersAtTheBot,
} from '#tests/support/mail'
import { clock } from '#core/services/clock'

/** Orders of a released product of `retailer`, handed to the files engine (processing). */
const submitted = (count: number, retailer = 'kith') =>
  ordersAtTheBot(count, { retailer, priceCents: 2500 })

const feeRows = (orderId: number) =>
  db.from('payment_ledger').where('order_id', orderId).where('kind', 'fee')
const refundRows = (orderId: number) =>
  db.from('payment_ledger').where('order_id', orderId).where('kind', 'refund')

test.group('Mail intake: the retailer’s signed e-mail proves the outcome', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    return () => {
      env.set('MAIL_INTAKE_DOMAIN', '')
      env.set('REFUND_ON_CANCEL_DAYS', 30)
    }
  })

  test('the bot’s task names the order’s own address, random and not its number', async ({
    assert,
  }) => {
    const { product, orders, directory } = await submitted(2)
    const [first, second] = orders
    // Ten random letters and digits without look-alikes, not the order's confirmation code. (Its
    // id is not searched for in it: a small id's digit turns up among ten random characters.)
    assert.match(first.mailToken!, /^ds-[a-hjkmnp-z2-9]{10}$/)
    assert.notEqual(first.mailToken, second.mailToken)
    assert.notInclude(first.mailToken!, orderNumber(first.id).slice(3).toLowerCase())
    const address = `${first.mailToken}@in.dropslot.test`
    assert.equal(orderMailAddress.of(first), address)

    // The files engine's task gives it as the profile's e-mail; the customer keeps theirs.
    const task = JSON.parse(await readFile(join(directory, `${first.publicId}.json`), 'utf8'))
    assert.equal(task.aco.profile.email, address)
    assert.notEqual(first.email, address)
    // So does every export format.
    for (const format of ['dropslot', 'aycd', 'stellar', 'cybersole', 'csv']) {
      const { file } = await acoExportService.forProduct(product.id, {
        format,
        reason: 'mail intake test',
        actor: { label: 'test' },
      })
      assert.include(String(file.body), address, format)
    }

    // Without the setting, nothing changes: no address, the customer's e-mail in the task.
    env.set('MAIL_INTAKE_DOMAIN', '')
    const { orders: plain, directory: plainDirectory } = await submitted(1)
    assert.isNull(plain[0].mailToken)
    const plainTask = JSON.parse(
      await readFile(join(plainDirectory, `${plain[0].publicId}.json`), 'utf8')
    )
    assert.equal(plainTask.aco.profile.email, plain[0].email)
  })

  for (const retailer of ['nike', 'adidas', 'footlocker', 'kith', 'palace', 'union']) {
    test(`${retailer}: a signed confirmation succeeds the order once; shipped and cancelled too`, async ({
      assert,
    }) => {
      const { orders } = await submitted(1, retailer)
      const [order] = orders
      const to = orderMailAddress.of(order)!
      const confirmation = await signedRetailerMail({
        retailer,
        kind: 'confirmation',
        to,
        orderNumber: 'RT-100200',
      })
      const report = await mailIntake.receive(confirmation, 'file')
      assert.deepInclude(
        report,
        {
          retailer,
          kind: 'confirmation',
          orderId: order.publicId,
          dkim: 'pass',
          action: 'success',
        },
        JSON.stringify(report)
      )
      await order.refresh()
      assert.equal(order.status, 'success')
      assert.equal(order.feeStatus, 'paid')
      assert.equal(order.confirmationNumber, 'RT-100200')
      assert.lengthOf(await feeRows(order.id), 1)
      const audit = await db
        .from('audit_logs')
        .where('subject_id', order.publicId)
        .where('action', 'order.result')
        .first()
      assert.equal(audit.actor_label, `mail:${report.messageId}`)

      const again = await mailIntake.receive(confirmation, 'imap')
      assert.equal(again.action, 'duplicate', JSON.stringify(again))
      assert.lengthOf(await feeRows(order.id), 1)

      const shipped = await mailIntake.receive(
        await signedRetailerMail({ retailer, kind: 'shipped', to, orderNumber: 'RT-100200' }),
        'smtp'
      )
      assert.deepInclude(shipped, { kind: 'shipped', action: 'recorded' }, JSON.stringify(shipped))
      const line = await db
        .from('order_events')
        .where('order_id', order.id)
        .where('kind', 'mail_shipped')
        .first()
      assert.equal(line.note, '1Z999AA10123456784')

      const cancelled = await mailIntake.receive(
        await signedRetailerMail({ retailer, kind: 'cancelled', to, orderNumber: 'RT-100200' }),
        'file'
      )
      assert.deepInclude(
        cancelled,
        { kind: 'cancelled', action: 'refund' },
        JSON.stringify(cancelled)
      )
      await order.refresh()
      assert.equal(order.status, 'retailer_cancelled')
      assert.equal(order.feeStatus, 'refunded')
      assert.equal(order.refundedCents, 2500)
    })
  }

  test('forged mail moves nothing and waits in review', async ({ assert }) => {
    const { orders } = await submitted(2, 'kith')
    const [order, other] = orders
    const to = orderMailAddress.of(order)!
    const genuine = await retailerMail({ retailer: 'kith', kind: 'confirmation', to })
    const signed = await sign(genuine, SIGNING_DOMAINS.kith)
    const cases: [string, Buffer, { to?: string[] }, RegExp][] = [
      ['no signature', Buffer.from(genuine), {}, /not signed/],
      [
        'tampered body',
        Buffer.from(signed.toString().replace('× 1', '× 2')),
        {},
        /does not verify/,
      ],
      ['another domain', await sign(genuine, SIGNING_DOMAINS.forger), {}, /not by Kith/],
      [
        'another retailer',
        await signedRetailerMail({ retailer: 'palace', kind: 'confirmation', to }),
        {},
        /not by Kith/,
      ],
      [
        'a format no parser knows',
        await sign(
          `From: Kith <orders@kith.com>\r\nTo: ${to}\r\nSubject: Hello from Kith\r\n` +
            `Message-ID: <newsletter-1@kith.com>\r\n\r\nOur spring lookbook is out.\r\n`,
          SIGNING_DOMAINS.kith
        ),
        {},
        /No parser/,
      ],
      [
        'sent to another order’s address',
        signed,
        { to: [orderMailAddress.of(other)!] },
        /another order/,
      ],
    ]
    for (const [name, raw, envelope, reason] of cases) {
      const report = await mailIntake.receive(raw, 'smtp', envelope)
      assert.equal(report.action, 'review', name)
      assert.match(report.reason ?? '', reason, name)
    }
    for (const item of orders) {
      await item.refresh()
      assert.equal(item.status, 'processing')
      assert.equal(item.feeStatus, 'none')
      assert.lengthOf(await feeRows(item.id), 0)
    }
    const review = await db.from('mail_messages').where('action', 'review')
    assert.lengthOf(review, cases.length)

    // The genuine message still acts, even after its forged copies were read.
    const report = await mailIntake.receive(signed, 'file')
    assert.equal(report.action, 'success')
  })

  test('a cancellation through two doors at once refunds once', async ({ assert }) => {
    const { orders } = await submitted(1, 'nike')
    const [order] = orders
    const to = orderMailAddress.of(order)!
    await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'nike',
        kind: 'confirmation',
        to,
        orderNumber: 'NK-55501',
      }),
      'file'
    )
    const cancellation = await signedRetailerMail({
      retailer: 'nike',
      kind: 'cancelled',
      to,
      orderNumber: 'NK-55501',
    })
    const reports = await Promise.all([
      mailIntake.receive(cancellation, 'smtp'),
      mailIntake.receive(cancellation, 'imap'),
    ])
    assert.sameMembers(
      reports.map((item) => item.action),
      ['refund', 'duplicate']
    )
    await order.refresh()
    assert.equal(order.status, 'retailer_cancelled')
    const refunds = await refundRows(order.id)
    assert.lengthOf(refunds, 1)
    assert.equal(refunds[0].amount_cents, 2500)
    assert.include(refunds[0].idempotency_key, 'retailer-cancel-refund')
    const email = await db
      .from('email_messages')
      .where('order_id', order.id)
      .where('template', 'retailer_cancelled')
    assert.lengthOf(email, 1)
  })

  test('a cancellation after REFUND_ON_CANCEL_DAYS goes to review', async ({ assert }) => {
    const { orders } = await submitted(1, 'adidas')
    const [order] = orders
    const to = orderMailAddress.of(order)!
    await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'adidas',
        kind: 'confirmation',
        to,
        orderNumber: 'AD-77001',
      }),
      'file'
    )
    env.set('REFUND_ON_CANCEL_DAYS', 30)
    clock.travel(31 * 86_400_000)
    const report = await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'adidas',
        kind: 'cancelled',
        to,
        orderNumber: 'AD-77001',
      }),
      'file'
    )
    assert.equal(report.action, 'review')
    assert.match(report.reason ?? '', /30 days/)
    await order.refresh()
    assert.equal(order.status, 'success')
    assert.lengthOf(await refundRows(order.id), 0)
  })

  test('the bot said failed, the retailer confirmed: success with one fee, flagged', async ({
    assert,
  }) => {
    const { orders } = await submitted(1, 'union')
    const [order] = orders
    await orderOutcome.apply(
      { orderId: order.publicId, status: 'fail', reason: 'Out of stock', reasonCode: 'sold_out' },
      { source: 'files' }
    )
    await order.refresh()
    assert.equal(order.status, 'fail')
    const report = await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'union',
        kind: 'confirmation',
        to: orderMailAddress.of(order)!,
        orderNumber: '4411',
      }),
      'file'
    )
    assert.equal(report.action, 'success')
    await order.refresh()
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'paid')
    assert.lengthOf(await feeRows(order.id), 1)
    const flag = await db
      .from('order_events')
      .where('order_id', order.id)
      .where('kind', 'corrected')
      .first()
    assert.include(JSON.stringify(flag.meta), 'bot_disagreed')

    // The bot's success arriving late changes nothing: one fee.
    await orderOutcome
      .apply({ orderId: order.publicId, status: 'success' }, { source: 'files' })
      .catch(() => null)
    assert.lengthOf(await feeRows(order.id), 1)
  })

  test('SUCCESS_EVIDENCE=mail: the bot’s success waits for the retailer’s e-mail, then one fee', async ({
    assert,
  }) => {
    env.set('SUCCESS_EVIDENCE', 'mail')
    try {
      const { orders } = await submitted(1, 'palace')
      const [order] = orders
      await orderOutcome.apply(
        { orderId: order.publicId, status: 'success', confirmationNumber: 'BOT-1' },
        { source: 'files' }
      )
      await orderOutcome.apply(
        { orderId: order.publicId, status: 'success', confirmationNumber: 'BOT-1' },
        { source: 'files' }
      )
      await order.refresh()
      assert.equal(order.status, 'processing')
      assert.equal(order.feeStatus, 'none')
      assert.lengthOf(await feeRows(order.id), 0)

      clock.travel(49 * 3_600_000)
      const { mailStatus } = await import('#mail/services/mail_status')
      const status = await mailStatus.summary()
      assert.deepEqual(status.awaitingMailOverdue, [order.publicId])

      const report = await mailIntake.receive(
        await signedRetailerMail({
          retailer: 'palace',
          kind: 'confirmation',
          to: orderMailAddress.of(order)!,
          orderNumber: 'PAL-77',
        }),
        'imap'
      )
      assert.equal(report.action, 'success')
      await order.refresh()
      assert.equal(order.status, 'success')
      assert.equal(order.confirmationNumber, 'PAL-77')
      assert.lengthOf(await feeRows(order.id), 1)
    } finally {
      env.set('SUCCESS_EVIDENCE', 'either')
    }
  })

  test('SUCCESS_EVIDENCE=bot: a confirmation is recorded and moves nothing', async ({ assert }) => {
    env.set('SUCCESS_EVIDENCE', 'bot')
    try {
      const { orders } = await submitted(1, 'kith')
      const report = await mailIntake.receive(
        await signedRetailerMail({
          retailer: 'kith',
          kind: 'confirmation',
          to: orderMailAddress.of(orders[0])!,
        }),
        'file'
      )
      assert.equal(report.action, 'recorded')
      await orders[0].refresh()
      assert.equal(orders[0].status, 'processing')
    } finally {
      env.set('SUCCESS_EVIDENCE', 'either')
    }
  })

  test('the raw message is sealed, then deleted after MAIL_RETENTION_DAYS; the evidence stays', async ({
    assert,
  }) => {
    const { orders } = await submitted(1, 'kith')
    const raw = await signedRetailerMail({
      retailer: 'kith',
      kind: 'confirmation',
      to: orderMailAddress.of(orders[0])!,
    })
    await mailIntake.receive(raw, 'file')
    const row = await db.from('mail_messages').where('order_id', orders[0].id).first()
    assert.notInclude(row.raw_sealed, 'Thank you for your purchase')
    assert.match(row.sha256, /^[0-9a-f]{64}$/)
    clock.travel(91 * 86_400_000)
    assert.equal(await mailIntake.purgeRaw(), 1)
    const after = await db.from('mail_messages').where('id', row.id).first()
    assert.isNull(after.raw_sealed)
    assert.equal(after.action, 'success')
    assert.equal(after.dkim, 'pass')
    assert.equal(after.sender, 'orders@kith.com')
  })
})
