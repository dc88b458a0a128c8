import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import { customerWithToken, envelope, profilePayload } from '#tests/helpers'

async function addProfile(client: any, token: string, overrides: Record<string, unknown> = {}) {
  return client
    .post('/api/user/profiles/add')
    .bearerToken(token)
    .json({ eProfile: envelope(profilePayload(overrides)) })
}

test.group('Profiles', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('adds a profile from the envelope and lists it with last 4 only', async ({
    client,
    assert,
  }) => {
    const { token } = await customerWithToken()
    const added = await addProfile(client, token)
    added.assertStatus(201)
    assert.isTrue(added.body().success)

    const list = await client.get('/api/user/profiles').bearerToken(token)
    list.assertStatus(200)
    assert.lengthOf(list.body(), 1)
    assert.containsSubset(list.body()[0], {
      profileName: 'Home',
      phone: '5551234567',
      shipping: { address1: '1 Main St', city: 'Springfield', country: 'US' },
      card: { last4: '4242', cardType: 'visa', month: '12' },
    })
    const body = JSON.stringify(list.body())
    assert.notInclude(body, '4242424242424242')
    assert.notInclude(body, '"code"')
  })

  test('the stored row holds no plaintext card number or CVV', async ({ client, assert }) => {
    const { user, token } = await customerWithToken()
    const payload = profilePayload({
      card: { name: 'T C', number: '5555555555554444', code: '987', month: '11', year: '2031' },
    })
    await client
      .post('/api/user/profiles/add')
      .bearerToken(token)
      .json({ eProfile: envelope(payload) })
      .then((response: any) => response.assertStatus(201))
    const rows = await db.from('profiles').where('user_id', user.id)
    const raw = JSON.stringify(rows)
    assert.notInclude(raw, '5555555555554444')
    assert.notInclude(raw, '5555 5555')
    assert.notInclude(raw, '"987"')
    assert.match(rows[0].card_vault, /^t1:/)
  })

  test('edits a profile, keeping the saved card when none is sent', async ({ client, assert }) => {
    const { token } = await customerWithToken()
    const added = await addProfile(client, token)
    const profileId = added.body().profile.profileId
    const withoutCard: Record<string, unknown> = profilePayload({ profileName: 'Work', profileId })
    delete withoutCard.card
    const edited = await client
      .post('/api/user/profiles/edit')
      .bearerToken(token)
      .json({ eProfile: envelope(withoutCard) })
    edited.assertStatus(200)
    assert.equal(edited.body().profile.profileName, 'Work')
    assert.equal(edited.body().profile.card.last4, '4242')

    const newCard = await client
      .post('/api/user/profiles/edit')
      .bearerToken(token)
      .json({
        eProfile: envelope(
          profilePayload({
            profileId,
            card: { number: '5555555555554444', code: '123', month: '01', year: '40' },
          })
        ),
      })
    newCard.assertStatus(200)
    assert.equal(newCard.body().profile.card.last4, '4444')
    assert.equal(newCard.body().profile.card.year, '2040')
  })

  test('deletes a profile', async ({ client, assert }) => {
    const { token } = await customerWithToken()
    const added = await addProfile(client, token)
    const removed = await client
      .post('/api/user/profiles/delete')
      .bearerToken(token)
      .json({ profileId: added.body().profile.profileId })
    removed.assertStatus(200)
    const list = await client.get('/api/user/profiles').bearerToken(token)
    assert.lengthOf(list.body(), 0)
  })

  test("a customer cannot edit or delete another customer's profile (404)", async ({
    client,
    assert,
  }) => {
    const owner = await customerWithToken()
    const intruder = await customerWithToken()
    const added = await addProfile(client, owner.token)
    const profileId = added.body().profile.profileId

    const edit = await client
      .post('/api/user/profiles/edit')
      .bearerToken(intruder.token)
      .json({ eProfile: envelope(profilePayload({ profileId, profileName: 'Mine now' })) })
    edit.assertStatus(404)
    edit.assertBodyContains({ code: 'profile_not_found' })
    const remove = await client
      .post('/api/user/profiles/delete')
      .bearerToken(intruder.token)
      .json({ profileId })
    remove.assertStatus(404)

    const intruderList = await client.get('/api/user/profiles').bearerToken(intruder.token)
    assert.lengthOf(intruderList.body(), 0)
    const ownerList = await client.get('/api/user/profiles').bearerToken(owner.token)
    assert.equal(ownerList.body()[0].profileName, 'Home')
  })

  test('refuses bad cards with the spec message')
    .with(['4242424242424241', '4767000000000004', '4859000000000000', '12'])
    .run(async ({ client, assert }, number) => {
      const { token } = await customerWithToken()
      const response = await addProfile(client, token, {
        card: { number, code: '123', month: '12', year: '30' },
      })
      response.assertStatus(422)
      assert.equal(response.body().error, 'Please enter a valid card.')
    })

  test('refuses an expired card', async ({ client }) => {
    const { token } = await customerWithToken()
    const response = await addProfile(client, token, {
      card: { number: '4242424242424242', code: '123', month: '01', year: '20' },
    })
    response.assertStatus(422)
    response.assertBodyContains({ error: 'Please enter a valid card.' })
  })

  test('refuses a profile missing required parts', async ({ client, assert }) => {
    const { token } = await customerWithToken()
    const payload = profilePayload() as Record<string, any>
    delete payload.billing
    payload.shipping = { ...payload.shipping, city: '' }
    const response = await client
      .post('/api/user/profiles/add')
      .bearerToken(token)
      .json({ eProfile: envelope(payload) })
    response.assertStatus(422)
    assert.equal(response.body().error, 'Please complete the form.')
    assert.properties(response.body().errors, ['billing', 'shipping.city'])
  })

  test('refuses a missing or unreadable envelope with a 400', async ({ client }) => {
    const { token } = await customerWithToken()
    for (const body of [
      {},
      { eProfile: 'not-an-envelope' },
      { eProfile: 'a'.repeat(32) + ':' + 'b'.repeat(32) },
      { eProfile: 12 },
    ]) {
      const response = await client.post('/api/user/profiles/add').bearerToken(token).json(body)
      response.assertStatus(400)
      response.assertBodyContains({ success: false })
    }
  })
})
