import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import type Order from '#orders/models/order'
import { mailIntake } from '#mail/services/mail_intake'
import { orderMailAddress } from '#orders/services/order_mail_address'
import {
  arcForward,
  arcReseal,
  SEALING_DOMAINS,
  signedRetailerMail,
  SIGNING_DOMAINS,
  useMailIntake,
  ordersAtTheBot,
} from '#tests/support/mail'

/** Orders of a released Kith product, handed to the files engine (processing). */
const submitted = (count: number) =>
  ordersAtTheBot(count, { priceCents: 2500 }).then(({ orders }) => orders)

const feeRows = (orderId: number) =>
  db.from('payment_ledger').where('order_id', orderId).where('kind', 'fee')

async function assertUntouched(assert: any, order: Order) {
  await order.refresh()
  assert.equal(order.status, 'processing')
  assert.equal(order.feeStatus, 'none')
  assert.lengthOf(await feeRows(order.id), 0)
}

const trust = (sealers: string) => env.set('MAIL_INTAKE_TRUSTED_ARC_SEALERS', sealers)

test.group('Mail intake: forwarded mail and trusted ARC sealers', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    trust(SEALING_DOMAINS.trusted)
    return () => {
      env.set('MAIL_INTAKE_DOMAIN', '')
      trust('')
    }
  })

  test('a confirmation forwarded by a trusted sealer that broke its DKIM succeeds with one fee', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = orderMailAddress.of(order)!
    const original = await signedRetailerMail({
      retailer: 'kith',
      kind: 'confirmation',
      to,
      orderNumber: 'KITH-7001',
    })
    // The catch-all provider verified Kith's signature, added its footer and sealed (ARC i=1).
    const forwarded = await arcForward(original, SEALING_DOMAINS.trusted)

    // Without trusted sealers (the default) ARC is ignored: the broken signature goes to review.
    trust('')
    const ignored = await mailIntake.receive(forwarded, 'imap')
    assert.deepInclude(ignored, { dkim: 'fail', action: 'review' })
    assert.match(ignored.reason!, /DKIM signature does not verify/)
    await assertUntouched(assert, order)

    trust(SEALING_DOMAINS.trusted)
    const report = await mailIntake.receive(forwarded, 'imap')
    assert.deepInclude(report, {
      retailer: 'kith',
      kind: 'confirmation',
      orderId: order.publicId,
      dkim: 'fail',
      action: 'success',
    })
    assert.match(report.reason!, /^arc:google\.com /)
    assert.include(report.reason!, 'kith.com')
    await order.refresh()
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'paid')
    assert.equal(order.confirmationNumber, 'KITH-7001')
    assert.lengthOf(await feeRows(order.id), 1)

    // The same message again, forwarded or straight from Kith, acts no more.
    const again = await mailIntake.receive(forwarded, 'smtp')
    assert.equal(again.action, 'duplicate')
    const direct = await mailIntake.receive(original, 'file')
    assert.equal(direct.action, 'duplicate')
    assert.lengthOf(await feeRows(order.id), 1)
  })

  test('the same forward sealed by a sealer nobody trusts goes to review, even handed on by a trusted one', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = orderMailAddress.of(order)!
    const original = await signedRetailerMail({ retailer: 'kith', kind: 'confirmation', to })
    const byStranger = await arcForward(original, SEALING_DOMAINS.untrusted)
    const report = await mailIntake.receive(byStranger, 'imap')
    assert.deepInclude(report, { dkim: 'fail', action: 'review', orderId: order.publicId })
    assert.match(report.reason!, /forwarder\.example, not a trusted ARC sealer/)

    // Handed on by the trusted sealer (i=2) after a stranger's first hop: the stranger wrote
    // the first-hop results, so the chain vouches for nothing.
    const handedOn = await arcReseal(byStranger, SEALING_DOMAINS.trusted)
    assert.match(handedOn.toString(), /ARC-Seal: i=2; a=rsa-sha256; t=\d+; cv=pass; d=google\.com/)
    const relayed = await mailIntake.receive(handedOn, 'imap')
    assert.deepInclude(relayed, { dkim: 'fail', action: 'review' })
    assert.match(relayed.reason!, /forwarder\.example, not a trusted ARC sealer/)
    await assertUntouched(assert, order)

    // With both hops trusted, the first receiver's results (i=1) are taken: one fee.
    trust(`${SEALING_DOMAINS.trusted}, ${SEALING_DOMAINS.untrusted}`)
    const trustedChain = await mailIntake.receive(handedOn, 'imap')
    assert.deepInclude(trustedChain, { dkim: 'fail', action: 'success' })
    assert.match(trustedChain.reason!, /^arc:google\.com /)
    await order.refresh()
    assert.equal(order.feeStatus, 'paid')
    assert.lengthOf(await feeRows(order.id), 1)
  })

  test('a trusted sealer whose first receiver saw no valid Kith signature goes to review', async ({
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = orderMailAddress.of(order)!
    const kithMail = await signedRetailerMail({ retailer: 'kith', kind: 'confirmation', to })
    const noKith =
      /google\.com \(a trusted ARC sealer\), but its first receiver saw no valid signature of Kith/
    const cases: [string, Buffer, RegExp][] = [
      [
        'the first receiver says dkim=fail',
        await arcForward(kithMail, SEALING_DOMAINS.trusted, {
          authResults: 'google.com;\r\n dkim=fail header.i=@kith.com header.s=test',
        }),
        noKith,
      ],
      [
        'the first receiver saw another domain’s signature',
        await arcForward(kithMail, SEALING_DOMAINS.trusted, {
          authResults: `google.com;\r\n dkim=pass header.d=${SIGNING_DOMAINS.forger} header.s=test`,
        }),
        noKith,
      ],
      [
        'the sealer’s signature does not cover the To header',
        await arcForward(kithMail, SEALING_DOMAINS.trusted, {
          headerList: 'From:Subject:Date:Message-ID',
        }),
        /ARC signature of google\.com does not cover the To header/,
      ],
    ]
    for (const [name, raw, reason] of cases) {
      const report = await mailIntake.receive(raw, 'imap')
      assert.equal(report.action, 'review', name)
      assert.match(report.reason!, reason, name)
    }
    await assertUntouched(assert, order)
  })

  test('a broken ARC chain (a header changed after sealing) goes to review', async ({ assert }) => {
    const [order, other] = await submitted(2)
    const to = orderMailAddress.of(order)!
    const kithMail = await signedRetailerMail({ retailer: 'kith', kind: 'confirmation', to })
    const sawFail = await arcForward(kithMail, SEALING_DOMAINS.trusted, {
      authResults: 'google.com;\r\n dkim=fail header.i=@kith.com header.s=test',
    })
    const sawPass = await arcForward(kithMail, SEALING_DOMAINS.trusted)
    const cases: [string, Buffer][] = [
      [
        'the first receiver’s results rewritten to pass',
        Buffer.from(sawFail.toString().replace('dkim=fail', 'dkim=pass')),
      ],
      [
        'the To changed to another order’s address',
        Buffer.from(sawPass.toString().replace(`To: ${to}`, `To: ${orderMailAddress.of(other)!}`)),
      ],
    ]
    for (const [name, raw] of cases) {
      const report = await mailIntake.receive(raw, 'imap')
      assert.equal(report.action, 'review', name)
      assert.match(report.reason!, /ARC chain is broken/, name)
    }
    await assertUntouched(assert, order)
    await assertUntouched(assert, other)
  })
})
