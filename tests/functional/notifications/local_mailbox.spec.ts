import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import { clock } from '#core/services/clock'
import EmailMessage from '#notifications/models/email_message'
import { deliverEmailJob } from '#notifications/jobs/email_jobs'
import { emailDelivery } from '#notifications/services/email_delivery'
import { adminWithToken, slotBoughtOverHttp, staffWithToken } from '#tests/helpers'
import { withoutRandomIds } from '#tests/support/random_ids'

const MAILBOX_NOTICE = "SMTP not configured: e-mails go to the console's mailbox"
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value))

/** A process without SMTP settings, as a default install runs (the suite's own has them). */
function withoutSmtp() {
  env.set('SMTP_HOST', '')
}

/** The outbox row written for an address, as the delivery job finds it. */
async function written(toAddress: string, template: string) {
  return EmailMessage.query()
    .where('to_address', toAddress)
    .where('template', template)
    .firstOrFail()
}

test.group('E-mail without SMTP: the console mailbox', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a message is kept in the mailbox with its own status and time, not left to send', async ({
    client,
    assert,
  }) => {
    withoutSmtp()
    clock.freeze()
    const writtenAt = clock.nowMs()
    const { token } = await adminWithToken()
    const signedUp = await client.get('/api/addEmail').qs({ email: 'mailbox.reader@example.test' })
    signedUp.assertStatus(200)
    const message = await written('mailbox.reader@example.test', 'newsletter_confirmation')
    const queuesBefore = await client.get('/api/admin/queues').bearerToken(token)
    const before = queuesBefore.body()

    clock.travel(90_000)
    assert.equal(await deliverEmailJob.handle({ messageId: message.id }), 'kept')

    const queuesAfter = await client.get('/api/admin/queues').bearerToken(token)
    const after = queuesAfter.body()
    assert.equal(after.backlog.emails.due, before.backlog.emails.due - 1)

    const mailbox = await client
      .get(`/api/admin/emails?filter=${q({ status: ['kept'] })}`)
      .bearerToken(token)
    mailbox.assertStatus(200)
    const listed = mailbox.body().find((row: { id: number }) => row.id === message.id)
    assert.include(listed, {
      toAddress: 'mailbox.reader@example.test',
      subject: "You're on the Dropslot list",
      status: 'kept',
      sentAt: null,
    })
    // Kept when it was delivered, 90 seconds after it was written (timestamps keep seconds).
    assert.equal(Date.parse(listed.keptAt), Math.floor((writtenAt + 90_000) / 1000) * 1000)

    const shown = await client.get(`/api/admin/emails/${message.id}`).bearerToken(token)
    shown.assertStatus(200)
    assert.equal(shown.body().status, 'kept')
    assert.include(shown.body().htmlBody, '<p>Thanks for signing up.')
    assert.include(shown.body().textBody, 'Thanks for signing up.')

    // Kept once: the job rung again (the sweep, a duplicate) neither sends nor keeps it twice.
    assert.isNull(await deliverEmailJob.handle({ messageId: message.id }))
    await message.refresh()
    assert.equal(message.status, 'kept')
    assert.equal(message.attempts, 0)
  })

  test('every staff role reads the mailbox; what it shows carries no card and no usable link', async ({
    client,
    assert,
  }) => {
    withoutSmtp()
    const { customer, order } = await slotBoughtOverHttp(client)
    const forgot = await client.post('/api/forgotpw').json({ email: customer.user.email })
    forgot.assertStatus(200)

    const receipt = await written(customer.user.email, 'order_received')
    const reset = await written(customer.user.email, 'password_reset')
    const resetToken = /token=([^\s"'&<]+)/.exec(reset.textBody)![1]
    for (const message of [receipt, reset]) {
      assert.equal(await deliverEmailJob.handle({ messageId: message.id }), 'kept')
    }

    const { token } = await staffWithToken('viewer')
    const mailbox = await client
      .get(`/api/admin/emails?filter=${q({ status: ['kept'], toAddress: customer.user.email })}`)
      .bearerToken(token)
    mailbox.assertStatus(200)
    assert.sameMembers(
      mailbox.body().map((row: { template: string }) => row.template),
      ['order_received', 'password_reset']
    )

    const shownReceipt = await client.get(`/api/admin/emails/${receipt.id}`).bearerToken(token)
    shownReceipt.assertStatus(200)
    const receiptText = JSON.stringify(shownReceipt.body())
    assert.include(shownReceipt.body().textBody, order.productTitle)
    assert.notMatch(receiptText, /4242\s?4242\s?4242\s?4242/)
    assert.notInclude(receiptText, 'CVV')
    assert.notInclude(withoutRandomIds(receiptText), '4242')

    const shownReset = await client.get(`/api/admin/emails/${reset.id}`).bearerToken(token)
    shownReset.assertStatus(200)
    assert.include(shownReset.body().textBody, 'reset?token=[hidden]')
    assert.include(shownReset.body().htmlBody, 'reset?token=[hidden]')
    assert.notInclude(JSON.stringify(shownReset.body()), resetToken)
  })

  test('a host without the web process (`dropslot schedule:work`) keeps what is due too', async ({
    client,
    assert,
  }) => {
    withoutSmtp()
    const signedUp = await client.get('/api/addEmail').qs({ email: 'schedule.reader@example.test' })
    signedUp.assertStatus(200)
    const message = await written('schedule.reader@example.test', 'newsletter_confirmation')

    const outcome = await emailDelivery.deliverDue()
    assert.isAtLeast(outcome.kept, 1)
    assert.deepInclude(outcome, { sent: 0, failed: 0, retrying: 0 })
    await message.refresh()
    assert.equal(message.status, 'kept')
    assert.isNotNull(message.keptAt)
    assert.isNull(message.sentAt)
  })

  test('a status that does not exist is a 400, not a 5xx', async ({ client }) => {
    const { token } = await adminWithToken()
    const response = await client
      .get(`/api/admin/emails?filter=${q({ status: ['mailboxed'] })}`)
      .bearerToken(token)
    response.assertStatus(400)
  })
})

test.group('E-mail without SMTP: the dashboard says where e-mail goes', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('without SMTP it names the mailbox, with SMTP it says nothing', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const withSmtp = await client.get('/api/admin/dashboard').bearerToken(token)
    withSmtp.assertStatus(200)
    assert.deepEqual(withSmtp.body().outgoingMail, {
      destination: 'smtp',
      notice: null,
      mailboxUrl: '/admin/mailbox',
    })

    withoutSmtp()
    const dashboard = await client.get('/api/admin/dashboard').bearerToken(token)
    dashboard.assertStatus(200)
    assert.deepEqual(dashboard.body().outgoingMail, {
      destination: 'mailbox',
      notice: MAILBOX_NOTICE,
      mailboxUrl: '/admin/mailbox',
    })
  })
})
