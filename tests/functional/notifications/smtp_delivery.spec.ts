import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import env from '#start/env'
import EmailMessage from '#notifications/models/email_message'
import { emailDelivery } from '#notifications/services/email_delivery'
import { SmtpSink } from '#tests/support/smtp_sink'
import { customerWithToken, envelope, profilePayload } from '#tests/helpers'

const SMTP_PORT = env.get('SMTP_PORT', 2526)

async function cleanOutbox() {
  await EmailMessage.query().delete()
}

test.group('E-mail delivery over SMTP', (group) => {
  group.each.setup(cleanOutbox)
  group.each.teardown(cleanOutbox)

  test('delivers queued messages to a real SMTP server, once', async ({ client, assert }) => {
    const sink = new SmtpSink()
    await sink.listen(SMTP_PORT)
    try {
      const register = await client.post('/register').json({
        email: 'mail.buyer@example.test',
        phone: '5551234567',
        password: 'long-enough',
        firstName: 'Mail',
        lastName: 'Buyer',
      })
      register.assertStatus(201)
      await client
        .post('/api/user/profiles/add')
        .bearerToken(register.body().token)
        .json({ eProfile: envelope(profilePayload()) })
      await client.post('/api/forgotpw').json({ email: 'mail.buyer@example.test' })
      await client.get('/api/addEmail').qs({ email: 'list@example.test' })

      const first = await emailDelivery.deliverDue()
      const again = await emailDelivery.deliverDue()
      assert.deepEqual(first, { sent: 3, kept: 0, failed: 0, retrying: 0 })
      assert.deepEqual(again, { sent: 0, kept: 0, failed: 0, retrying: 0 })

      const recipients = sink.received.map((mail) => mail.to.join(','))
      assert.sameMembers(recipients, [
        'mail.buyer@example.test',
        'mail.buyer@example.test',
        'list@example.test',
      ])
      const subjects = sink.received.map((mail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1])
      assert.sameMembers(subjects, [
        'Welcome to Dropslot',
        'Reset your Dropslot password',
        "You're on the Dropslot list",
      ])
      for (const mail of sink.received) {
        assert.equal(mail.from, 'no-reply@dropslot.test')
        assert.include(mail.raw, 'text/plain')
        assert.include(mail.raw, 'text/html')
        assert.notMatch(mail.raw, /4242\s?4242\s?4242\s?4242/)
        assert.notInclude(mail.raw, 'CVV')
      }
      const rows = await EmailMessage.all()
      assert.isTrue(rows.every((row) => row.status === 'sent' && row.attempts === 1))
    } finally {
      await sink.close()
    }
  })

  test('a failed send is kept, retried later, and given up after the last attempt', async ({
    assert,
  }) => {
    let refuse = true
    const sink = new SmtpSink({ rejectWith: () => (refuse ? 'mailbox busy, try later' : null) })
    await sink.listen(SMTP_PORT)
    try {
      const { user } = await customerWithToken()
      const message = await EmailMessage.create({
        toAddress: user.email,
        template: 'welcome',
        subject: 'Welcome to Dropslot',
        textBody: 'Hello',
        htmlBody: '<p>Hello</p>',
        status: 'queued',
        attempts: 0,
      })

      assert.deepEqual(await emailDelivery.deliverDue(), {
        sent: 0,
        kept: 0,
        failed: 0,
        retrying: 1,
      })
      await message.refresh()
      assert.equal(message.status, 'queued')
      assert.equal(message.attempts, 1)
      assert.include(message.lastError, 'mailbox busy')
      assert.isTrue(message.nextAttemptAt! > DateTime.now())

      // Not due yet: nothing happens until the back-off has passed.
      assert.deepEqual(await emailDelivery.deliverDue(), {
        sent: 0,
        kept: 0,
        failed: 0,
        retrying: 0,
      })

      refuse = false
      message.nextAttemptAt = DateTime.now().minus({ seconds: 1 })
      await message.save()
      assert.deepEqual(await emailDelivery.deliverDue(), {
        sent: 1,
        kept: 0,
        failed: 0,
        retrying: 0,
      })
      await message.refresh()
      assert.equal(message.status, 'sent')
      assert.equal(message.attempts, 2)
      assert.lengthOf(sink.received, 1)

      refuse = true
      const doomed = await EmailMessage.create({
        toAddress: user.email,
        template: 'welcome',
        subject: 'Welcome to Dropslot',
        textBody: 'Hello',
        status: 'queued',
        attempts: 4,
      })
      assert.deepEqual(await emailDelivery.deliverDue(), {
        sent: 0,
        kept: 0,
        failed: 1,
        retrying: 0,
      })
      await doomed.refresh()
      assert.equal(doomed.status, 'failed')
      assert.equal(doomed.attempts, 5)
    } finally {
      await sink.close()
    }
  })
})
