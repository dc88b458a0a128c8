import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#accounts/models/user'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { paymentKeys } from '#payments/services/payment_service'
import { clock } from '#core/services/clock'
import { customerWithToken, envelope, profilePayload, TEST_CARDS } from '#tests/helpers'

const nextYear = DateTime.now().year + 1
const billingAddress = {
  address1: '1 Main St',
  city: 'Springfield',
  zip: '12345',
  state: 'IL',
  country: 'US',
}

function card(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Test Customer',
    number: TEST_CARDS.ok,
    exp_month: 12,
    exp_year: nextYear,
    cvc: '123',
    address_zip: '12345',
    ...overrides,
  }
}

test.group('Card on file', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('genToken then billing/set saves the card: brand, last 4, expiry', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const generated = await client
      .post('/api/user/billing/genToken')
      .bearerToken(token)
      .json({ encrypted: envelope(card({ number: '5555 5555 5555 4444', exp_year: '29' })) })
    generated.assertStatus(200)
    const cardToken = generated.body().id
    assert.match(cardToken, /^tok_/)
    assert.deepEqual(generated.body().token, { id: cardToken })
    assert.deepEqual(generated.body().card, {
      brand: 'mastercard',
      last4: '4444',
      expMonth: 12,
      expYear: 2029,
    })
    assert.notInclude(JSON.stringify(generated.body()), '5555555555554444')

    const saved = await client
      .post('/api/user/billing/set')
      .bearerToken(token)
      .json({ billingAddress, token: cardToken })
    saved.assertStatus(200)
    saved.assertBodyContains({
      success: true,
      user: { billingLast4: '4444', cardBrand: 'mastercard', cardExpMonth: 12, cardExpYear: 2029 },
    })

    const info = await client.get('/api/user/info').bearerToken(token)
    info.assertBodyContains({ billingLast4: '4444', billingAddress: { line1: '1 Main St' } })

    await user.refresh()
    assert.match(user.gatewayCustomerId!, /^cus_/)
    assert.match(user.cardPaymentMethodId!, /^pm_/)

    const entries = await PaymentLedgerEntry.query().where('user_id', user.id).orderBy('id')
    assert.deepEqual(
      entries.map((entry) => [entry.kind, entry.status]),
      [
        ['customer_card', 'succeeded'],
        ['customer_card', 'succeeded'],
      ]
    )
    assert.equal(entries[1].idempotencyKey, paymentKeys.saveCard(user.uuid, cardToken))
  })

  test('a new card replaces the old one on the same gateway customer', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const save = async (number: string) => {
      const generated = await client
        .post('/api/user/billing/genToken')
        .bearerToken(token)
        .json({ encrypted: envelope(card({ number })) })
      return client
        .post('/api/user/billing/set')
        .bearerToken(token)
        .json({ billingAddress, token: generated.body().id })
    }
    const first = await save(TEST_CARDS.ok)
    first.assertStatus(200)
    await user.refresh()
    const firstCustomer = user.gatewayCustomerId
    const firstMethod = user.cardPaymentMethodId
    const second = await save('5555555555554444')
    second.assertStatus(200)
    await user.refresh()
    assert.equal(user.gatewayCustomerId, firstCustomer)
    assert.notEqual(user.cardPaymentMethodId, firstMethod)
    assert.equal(user.cardLast4, '4444')
  })

  test('refuses cards failing Luhn, with prefixes 4767 or 4859, or expired', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const lastMonth = DateTime.now().minus({ months: 1 })
    const bad = [
      card({ number: '4242424242424241' }),
      card({ number: '4767000000000006' }),
      card({ number: '4859000000000004' }),
      card({ exp_month: lastMonth.month, exp_year: lastMonth.year }),
      card({ exp_month: 13 }),
      card({ cvc: '12' }),
      card({ number: undefined }),
    ]
    for (const value of bad) {
      const response = await client
        .post('/api/user/billing/genToken')
        .bearerToken(token)
        .json({ encrypted: envelope(value) })
      response.assertStatus(422)
      response.assertBodyContains({
        success: false,
        error: 'Please enter a valid card.',
        code: 'invalid_card',
      })
    }
    assert.lengthOf(await PaymentLedgerEntry.query().where('user_id', user.id), 0)
  })

  test('a card is valid through the last day of its month in UTC, on the product’s clock', async ({
    client,
    assert,
  }) => {
    // 23:30 UTC on Dec 31: a 12/<year> card is valid. An hour later it is 19:30 on Dec 31 in
    // New York, but January in UTC: the card has expired.
    const year = DateTime.now().year + 1
    // Tokens expire on the product's clock too: this one outlives the jump to next December.
    const { user } = await customerWithToken()
    const longLived = await User.accessTokens.create(user, ['*'], { expiresIn: '3 years' })
    const token = longLived.value!.release()
    clock.freeze(Date.UTC(year, 11, 31, 23, 30))
    const lastMinute = await client
      .post('/api/user/billing/genToken')
      .bearerToken(token)
      .json({ encrypted: envelope(card({ exp_month: 12, exp_year: year })) })
    lastMinute.assertStatus(200)

    clock.travel(60 * 60 * 1000)
    const profile = profilePayload({
      card: { name: 'Test', number: TEST_CARDS.ok, code: '123', month: '12', year: String(year) },
    })
    for (const request of [
      client
        .post('/api/user/billing/genToken')
        .bearerToken(token)
        .json({ encrypted: envelope(card({ exp_month: 12, exp_year: year })) }),
      client
        .post('/api/user/profiles/add')
        .bearerToken(token)
        .json({ eProfile: envelope(profile) }),
    ]) {
      const response = await request
      response.assertStatus(422)
      response.assertBodyContains({ error: 'Please enter a valid card.' })
    }
    const january = await client
      .post('/api/user/billing/genToken')
      .bearerToken(token)
      .json({ encrypted: envelope(card({ exp_month: 1, exp_year: year + 1 })) })
    january.assertStatus(200)
    assert.lengthOf(await PaymentLedgerEntry.query().where('user_id', user.id), 2)
  })

  test('a card the bank declines at save is refused and nothing is written', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const generated = await client
      .post('/api/user/billing/genToken')
      .bearerToken(token)
      .json({ encrypted: envelope(card({ number: TEST_CARDS.declinedAtSave })) })
    generated.assertStatus(200)

    const saved = await client
      .post('/api/user/billing/set')
      .bearerToken(token)
      .json({ billingAddress, token: generated.body().id })
    saved.assertStatus(402)
    saved.assertBodyContains({
      success: false,
      error: 'Your card was declined. Try another card.',
      code: 'card_declined',
      errors: { card: 'Your card was declined. Try another card.' },
    })
    const fresh = await User.findOrFail(user.id)
    assert.isNull(fresh.cardLast4)
    assert.isNull(fresh.cardPaymentMethodId)
    assert.isNull(fresh.billingAddress)
    const entry = await PaymentLedgerEntry.query()
      .where('user_id', user.id)
      .where('kind', 'customer_card')
      .where('idempotency_key', 'like', `%-user-${user.uuid}-card-%`)
      .firstOrFail()
    assert.equal(entry.status, 'failed')
    assert.equal(entry.errorCode, 'generic_decline')
  })

  test('unknown, reused and malformed tokens are refused', async ({ client }) => {
    const { token } = await customerWithToken()
    const generated = await client
      .post('/api/user/billing/genToken')
      .bearerToken(token)
      .json({ encrypted: envelope(card()) })
    const cardToken = generated.body().id
    const saved = await client
      .post('/api/user/billing/set')
      .bearerToken(token)
      .json({ billingAddress, token: cardToken })
    saved.assertStatus(200)

    const other = await customerWithToken()
    for (const [bearer, value] of [
      [other.token, cardToken],
      [token, 'tok_sbx_doesnotexist'],
      [token, 'not a token!'],
    ]) {
      const response = await client
        .post('/api/user/billing/set')
        .bearerToken(bearer)
        .json({ billingAddress, token: value })
      response.assertStatus(422)
      response.assertBodyContains({ error: 'Please enter a valid card.', code: 'invalid_card' })
    }
  })

  test('genToken needs a readable envelope and a signed-in customer', async ({ client }) => {
    const { token } = await customerWithToken()
    const garbled = await client
      .post('/api/user/billing/genToken')
      .bearerToken(token)
      .json({ encrypted: 'abc:def' })
    garbled.assertStatus(400)
    garbled.assertBodyContains({ code: 'invalid_envelope' })

    const anonymous = await client
      .post('/api/user/billing/genToken')
      .json({ encrypted: envelope(card()) })
    anonymous.assertStatus(401)
  })
})
