import { test } from '@japa/runner'
import { mkdtemp } from 'node:fs/promises'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { ImapFlow } from 'imapflow'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import Product from '#catalog/models/product'
import { releaseRunner } from '#release/services/release_runner'
import { FilesEngine } from '#release/services/checkout_engines'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { startSmtpListener } from '#mail/services/smtp_listener'
import { ImapReader, imapSettings } from '#mail/services/imap_reader'
import { mailDoors } from '#mail/services/mail_doors'
import { mailStatus } from '#mail/services/mail_status'
import { clock } from '#core/services/clock'
import { DateTime } from 'luxon'
import alertsConfig from '#config/alerts'
import { mailUnreadable } from '#alerts/rules/mail_unreadable'
import { releasedProductWithOrders } from '#tests/support/release'
import { signedRetailerMail, useMailIntake } from '#tests/support/mail'

/** The test mailbox of scripts/ci/dovecot.sh (test-only credentials). */
const IMAP_URL =
  process.env.MAIL_TEST_IMAP_URL ?? 'imap://intake:intake-test-only@127.0.0.1:2643/INBOX'

async function submitted(retailer: string) {
  const { product, orders } = await releasedProductWithOrders(1, { priceCents: 1800 })
  await Product.query().where('id', product.id).update({ retailer })
  const directory = await mkdtemp(join(tmpdir(), 'dropslot-mail-tasks-'))
  await releaseRunner.run({ productId: product.id, engine: new FilesEngine(directory) })
  await orders[0].refresh()
  return orders[0]
}

function reachable(url: string) {
  const { host, port } = imapSettings(url)
  return new Promise<boolean>((resolve) => {
    const socket = createConnection({ host, port })
    socket.setTimeout(1000)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
  })
}

test.group('Mail intake: the SMTP and IMAP doors', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    return () => env.set('MAIL_INTAKE_DOMAIN', '')
  })

  test('the SMTP listener takes a signed confirmation over a real socket; relaying is refused', async ({
    assert,
  }) => {
    const order = await submitted('nike')
    const listener = await startSmtpListener({ port: 0, host: '127.0.0.1' })
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: listener.port,
      secure: false,
      ignoreTLS: true,
    })
    try {
      const to = orderMailAddress.of(order)!
      const raw = await signedRetailerMail({ retailer: 'nike', kind: 'confirmation', to })
      const sent = await transport.sendMail({
        envelope: { from: 'bounce@official.nike.com', to: [to] },
        raw,
      })
      assert.match(sent.response, /^250 /)
      const row = await db
        .from('mail_messages')
        .where('door', 'smtp')
        .orderBy('id', 'desc')
        .select('order_id', 'action', 'reason', 'dkim', 'dkim_domain', 'kind', 'retailer')
        .first()
      assert.equal(row?.action, 'success', `the intake's decision: ${JSON.stringify(row)}`)
      assert.equal(row.order_id, order.id)
      await order.refresh()
      assert.equal(order.status, 'success')
      assert.equal(order.feeStatus, 'paid')

      await assert.rejects(
        () =>
          transport.sendMail({
            envelope: { from: 'someone@example.test', to: ['victim@example.org'] },
            raw: 'Subject: relay\r\n\r\nhello\r\n',
          }),
        /Relay denied/
      )
    } finally {
      transport.close()
      await listener.close()
    }
  })

  test('the IMAP reader reads the catch-all mailbox once, moves each message, and in IDLE reads mail as it lands', async ({
    assert,
  }) => {
    if (!(await reachable(IMAP_URL))) {
      if (process.env.CI === 'true') {
        assert.fail('No IMAP server on the test port: scripts/ci/dovecot.sh must run first in CI.')
      }
      console.log('  skipped: no IMAP server reachable (start one with scripts/ci/dovecot.sh)')
      return
    }
    // A catch-all folder and a done folder of this run's own, so two runs can share the server.
    const run = `${process.pid}-${Date.now()}`
    const settings = { ...imapSettings(IMAP_URL, `Done-${run}`), mailbox: `Intake-${run}` }
    const imap = new ImapFlow({
      host: settings.host,
      port: settings.port,
      secure: false,
      auth: { user: settings.user, pass: settings.pass },
      logger: false,
    })
    await imap.connect()
    try {
      await imap.mailboxCreate(settings.mailbox)
      const order = await submitted('kith')
      const to = orderMailAddress.of(order)!
      const confirmation = await signedRetailerMail({
        retailer: 'kith',
        kind: 'confirmation',
        to,
        orderNumber: 'KH-4100',
      })
      await imap.append(settings.mailbox, confirmation)
      await imap.append(settings.mailbox, confirmation)

      const reader = new ImapReader(settings)
      const reports = await reader.readOnce()
      assert.deepEqual(
        reports.map((report) => report.action),
        ['success', 'duplicate']
      )
      await order.refresh()
      assert.equal(order.status, 'success')
      const fees = await db.from('payment_ledger').where('order_id', order.id).where('kind', 'fee')
      assert.lengthOf(fees, 1)

      assert.deepEqual(await reader.readOnce(), [])

      // Held open (IDLE): a message landing in the mailbox is read as it arrives.
      const stop = new AbortController()
      const arrived = new Promise<string>((resolve) => {
        void reader.watch(stop.signal, (report) => resolve(report.action))
      })
      await imap.append(
        settings.mailbox,
        await signedRetailerMail({ retailer: 'kith', kind: 'shipped', to, orderNumber: 'KH-4100' })
      )
      assert.equal(await arrived, 'recorded')
      stop.abort()
      const done = await imap.status(settings.doneFolder, { messages: true })
      assert.equal(done.messages, 3)
      const states = await mailDoors.states()
      const [state] = states.filter((item) => item.door === 'imap')
      assert.isNull(state.failingSince)
      assert.isNotNull(state.lastOkAt)
    } finally {
      await imap.mailboxDelete(settings.doneFolder).catch(() => null)
      await imap.mailboxDelete(settings.mailbox).catch(() => null)
      await imap.logout()
    }
  })

  test('a mailbox that cannot be read for 5 minutes shows as unreadable', async ({ assert }) => {
    const reader = new ImapReader(
      imapSettings('imap://intake:wrong-password@127.0.0.1:1/INBOX', 'Done')
    )
    await assert.rejects(() => reader.readOnce())
    let status = await mailStatus.summary()
    assert.deepEqual(status.unreadable, [])
    const [state] = status.doors
    assert.notInclude(state.lastError ?? '', 'wrong-password')
    clock.travel(5 * 60_000)
    status = await mailStatus.summary()
    assert.deepEqual(status.unreadable, ['imap'])
    const context = { thresholds: alertsConfig.thresholds, now: DateTime.now() }
    const findings = await mailUnreadable.evaluate(context)
    assert.deepEqual(
      findings?.map((finding) => finding.subject),
      ['imap']
    )
    assert.match(findings![0].title, /Mail intake unreadable for 5 minutes/)
    await mailDoors.ok('imap')
    status = await mailStatus.summary()
    assert.deepEqual(status.unreadable, [])
    assert.deepEqual(await mailUnreadable.evaluate(context), [])
  })
})
