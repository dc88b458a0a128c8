import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { customerWithToken } from '#tests/helpers'

test.group('Account details and billing address', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('updates name, e-mail and phone', async ({ client }) => {
    const { token } = await customerWithToken()
    const response = await client
      .post('/api/user/updateProfile')
      .bearerToken(token)
      .json({
        updates: { name: 'Renamed Person', email: 'Renamed@Example.test', phone: '555-000-1111' },
      })
    response.assertStatus(200)
    const info = await client.get('/api/user/info').bearerToken(token)
    info.assertBodyContains({
      name: 'Renamed Person',
      email: 'renamed@example.test',
      phone: '5550001111',
    })
  })

  test('refuses an e-mail that belongs to another account', async ({ client }) => {
    const other = await customerWithToken()
    const { token } = await customerWithToken()
    const response = await client
      .post('/api/user/updateProfile')
      .bearerToken(token)
      .json({ updates: { email: other.user.email } })
    response.assertStatus(422)
    response.assertBodyContains({
      errors: { email: 'This e-mail is already used by another account.' },
    })
  })

  test('refuses a missing updates object and changes nothing', async ({ client, assert }) => {
    const { user, token } = await customerWithToken()
    const before = await client.get('/api/user/info').bearerToken(token)
    const response = await client
      .post('/api/user/updateProfile')
      .bearerToken(token)
      .json({ name: 'Renamed Person', email: 'renamed@example.test', phone: '555-000-1111' })
    response.assertStatus(422)
    assert.equal(response.body().success, false)
    assert.equal(response.body().errors.updates, 'The updates field is required.')
    const after = await client.get('/api/user/info').bearerToken(token)
    assert.deepEqual(after.body(), before.body())
    assert.equal(after.body().email, user.email)
  })

  test('saves the billing address and shows it in user info', async ({ client }) => {
    const { token } = await customerWithToken()
    const response = await client
      .post('/api/user/billing/set')
      .bearerToken(token)
      .json({
        billingAddress: {
          address1: '9 Elm St',
          address2: '',
          city: 'Portland',
          zip: '97201',
          state: 'OR',
          country: 'us',
        },
      })
    response.assertStatus(200)
    const info = await client.get('/api/user/info').bearerToken(token)
    info.assertBodyContains({
      billingAddress: {
        line1: '9 Elm St',
        city: 'Portland',
        postal_code: '97201',
        state: 'OR',
        country: 'US',
      },
    })
  })

  test('an incomplete billing address is refused and nothing is saved', async ({ client }) => {
    const { token } = await customerWithToken()
    const response = await client
      .post('/api/user/billing/set')
      .bearerToken(token)
      .json({ billingAddress: { address1: '9 Elm St', city: '', zip: '97201' } })
    response.assertStatus(422)
    const info = await client.get('/api/user/info').bearerToken(token)
    info.assertBodyContains({ billingAddress: null })
  })
})
