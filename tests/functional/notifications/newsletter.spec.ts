import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import NewsletterSubscriber from '#notifications/models/newsletter_subscriber'
import EmailMessage from '#notifications/models/email_message'

test.group('Newsletter', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('subscribes once, however often it is asked', async ({ client, assert }) => {
    const first = await client.get('/api/addEmail').qs({ email: 'Fan@Example.test' })
    first.assertStatus(200)
    first.assertBodyContains({ success: true, subscribed: true, alreadySubscribed: false })
    const second = await client.get('/api/addEmail').qs({ email: 'fan@example.test' })
    second.assertBodyContains({ success: true, subscribed: true, alreadySubscribed: true })

    assert.lengthOf(await NewsletterSubscriber.query().where('email', 'fan@example.test'), 1)
    const confirmations = await EmailMessage.query()
      .where('to_address', 'fan@example.test')
      .where('template', 'newsletter_confirmation')
    assert.lengthOf(confirmations, 1)
  })

  test('an invalid or missing e-mail is a 422', async ({ client }) => {
    for (const qs of [{ email: 'nope' }, {}]) {
      const response = await client.get('/api/addEmail').qs(qs)
      response.assertStatus(422)
      response.assertBodyContains({ success: false, code: 'validation_failed' })
    }
  })
})
