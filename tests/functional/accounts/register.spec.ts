import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#accounts/models/user'
import EmailMessage from '#notifications/models/email_message'

const valid = {
  email: 'New.Buyer@Example.test',
  phone: '555-123-4567',
  password: 'long-enough',
  name: 'New Buyer',
  firstName: 'New',
  lastName: 'Buyer',
}

test.group('Register', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('creates a customer, strips phone dashes and returns a working token', async ({
    client,
    assert,
  }) => {
    const response = await client.post('/register').json(valid)
    response.assertStatus(201)
    assert.isTrue(response.body().success)
    assert.match(response.body().token, /^oat_/)

    const info = await client.get('/api/user/info').bearerToken(response.body().token)
    info.assertBodyContains({
      email: 'new.buyer@example.test',
      phone: '5551234567',
      role: 'customer',
    })

    const welcome = await EmailMessage.findByOrFail('toAddress', 'new.buyer@example.test')
    assert.equal(welcome.template, 'welcome')
  })

  test('refuses {field} with a field message')
    .with([
      {
        field: 'password',
        payload: { password: 'short' },
        message: 'Password must be at least 8 characters.',
      },
      {
        field: 'phone',
        payload: { phone: '1234-5678-9012-3456' },
        message: 'Phone must be at most 15 digits.',
      },
      {
        field: 'firstName',
        payload: { firstName: 'A'.repeat(16) },
        message: 'First name must be at most 15 characters.',
      },
      {
        field: 'lastName',
        payload: { lastName: 'B'.repeat(21) },
        message: 'Last name must be at most 20 characters.',
      },
      {
        field: 'email',
        payload: { email: 'not-an-email' },
        message: 'Please enter a valid e-mail address.',
      },
      { field: 'email', payload: { email: 42 }, message: 'The email field must be text.' },
      {
        field: 'firstName',
        payload: { firstName: undefined },
        message: 'The firstName field is required.',
      },
    ])
    .run(async ({ client, assert }, row) => {
      const response = await client.post('/register').json({ ...valid, ...row.payload })
      response.assertStatus(422)
      assert.equal(response.body().success, false)
      assert.equal(response.body().code, 'validation_failed')
      assert.equal(response.body().errors[row.field], row.message)
      assert.equal(await User.query().where('email', 'new.buyer@example.test').first(), null)
    })

  test('a second account with the same e-mail is refused with 409', async ({ client }) => {
    const first = await client.post('/register').json(valid)
    first.assertStatus(201)
    const again = await client.post('/register').json({ ...valid, email: 'new.buyer@example.TEST' })
    again.assertStatus(409)
    again.assertBodyContains({ success: false, code: 'email_taken' })
  })

  test('register with an ad token', async ({ client, assert }) => {
    const response = await client.post('/register/ad').json({
      name: 'Ad Buyer',
      email: 'ad@example.test',
      password: 'long-enough',
      adtoken: 'IG-SPRING',
    })
    response.assertStatus(201)
    const user = await User.findByOrFail('email', 'ad@example.test')
    assert.equal(user.adToken, 'IG-SPRING')

    const missing = await client
      .post('/register/ad')
      .json({ name: 'Ad Buyer', email: 'ad2@example.test', password: 'long-enough' })
    missing.assertStatus(422)
    assert.property(missing.body().errors, 'adtoken')
  })
})

test.group('Register under concurrency', (group) => {
  group.each.teardown(async () => {
    await User.query().where('email', 'race@example.test').delete()
  })

  test('two simultaneous registrations with one e-mail make one account', async ({
    client,
    assert,
  }) => {
    const attempts = await Promise.all(
      Array.from({ length: 2 }, () =>
        client.post('/register').json({ ...valid, email: 'race@example.test' })
      )
    )
    const statuses = attempts.map((response) => response.status()).sort()
    assert.deepEqual(statuses, [201, 409])
    const accounts = await User.query().where('email', 'race@example.test')
    assert.lengthOf(accounts, 1)
  })
})
