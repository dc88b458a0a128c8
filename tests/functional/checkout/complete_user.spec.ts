import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import User from '#accounts/models/user'
import Order from '#orders/models/order'
import Profile from '#profiles/models/profile'
import { paymentService } from '#payments/services/payment_service'
import { customerWithCard, envelope, productFor, profilePayload, TEST_CARDS } from '#tests/helpers'
import { DateTime } from 'luxon'

async function cardToken(number: string = TEST_CARDS.ok) {
  const token = await paymentService.createCardToken(
    { name: 'New Buyer', number, expMonth: 12, expYear: DateTime.now().year + 2, cvc: '123' },
    null
  )
  return token.id
}

test.group('One-step checkout (completeuser)', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  // Fresh rate-limit counters per test (the suite's onTest hook does not reach grouped tests).

  test('creates the customer, saves the card and the profile, and takes the slot', async ({
    client,
    assert,
  }) => {
    const product = await productFor({ totalStock: 5 })
    const response = await client.post('/api/checkout/completeuser').json({
      email: 'New.Buyer@Example.test',
      name: 'New Buyer',
      productId: product.id,
      stripeToken: await cardToken(),
      acoDataPayload: envelope({ ...profilePayload(), style: 'White', size: '11' }),
    })
    response.assertStatus(201)
    const { order, token } = response.body()
    assert.deepInclude(order, {
      email: 'new.buyer@example.test',
      name: 'New Buyer',
      productId: product.id,
      style: 'White',
      size: '11',
      status: 'pending',
    })

    const user = await User.findByOrFail('email', 'new.buyer@example.test')
    assert.equal(user.cardLast4, '4242')
    assert.match(user.cardPaymentMethodId!, /^pm_/)
    const profiles = await Profile.query().where('user_id', user.id)
    assert.lengthOf(profiles, 1)
    assert.equal(order.profileId, profiles[0].publicId)

    const orders = await client.get('/api/user/orders').bearerToken(token)
    orders.assertStatus(200)
    assert.equal(orders.body()[0].orderId, order.orderId)
    await product.refresh()
    assert.equal(product.stockTaken, 1)
  })

  test('a signed-in customer uses their own account', async ({ client, assert }) => {
    const { user, token } = await customerWithCard()
    const product = await productFor({ sizeType: 'OS', sizes: ['OS'], styles: 'OS' })
    const response = await client
      .post('/api/checkout/completeuser')
      .bearerToken(token)
      .json({
        email: user.email,
        name: user.name,
        productId: product.id,
        stripeToken: await cardToken('5555555555554444'),
        acoDataPayload: envelope(profilePayload()),
      })
    response.assertStatus(201)
    assert.notProperty(response.body(), 'token')
    await user.refresh()
    assert.equal(user.cardLast4, '4444')
    assert.lengthOf(await Order.query().where('user_id', user.id), 1)

    const someoneElse = await client
      .post('/api/checkout/completeuser')
      .bearerToken(token)
      .json({
        email: 'other@example.test',
        name: 'Other',
        productId: product.id,
        stripeToken: await cardToken(),
        acoDataPayload: envelope(profilePayload()),
      })
    someoneElse.assertStatus(403)
  })

  test("an anonymous caller cannot use an existing customer's account", async ({
    client,
    assert,
  }) => {
    const { user } = await customerWithCard()
    const before = user.cardPaymentMethodId
    const product = await productFor()
    const response = await client.post('/api/checkout/completeuser').json({
      email: user.email,
      name: 'Impostor',
      productId: product.id,
      stripeToken: await cardToken('5555555555554444'),
      acoDataPayload: envelope({ ...profilePayload(), style: 'Black', size: '9' }),
    })
    response.assertStatus(409)
    response.assertBodyContains({ code: 'account_exists' })
    await user.refresh()
    assert.equal(user.cardPaymentMethodId, before)
    assert.lengthOf(await Profile.query().where('user_id', user.id), 0)
    assert.lengthOf(await Order.query().where('user_id', user.id), 0)
    // The card saved at the gateway for the refused account is taken back.
    const reference = `new-${createHash('sha256').update(user.email).digest('hex').slice(0, 24)}`
    assert.lengthOf(await db.from('sandbox_customers').where('reference', reference), 0)
  })

  test('refuses missing data, a bad envelope, a bad profile or a declined card without an account', async ({
    client,
    assert,
  }) => {
    const product = await productFor()
    const base = async () => ({
      email: 'someone@example.test',
      name: 'Someone',
      productId: product.id,
      stripeToken: await cardToken(),
      acoDataPayload: envelope({ ...profilePayload(), style: 'Black', size: '9' }),
    })

    const missing = await client
      .post('/api/checkout/completeuser')
      .json({ ...(await base()), stripeToken: undefined })
    missing.assertStatus(400)
    missing.assertBodyContains({ error: 'insufficient checkout data' })

    const garbled = await client
      .post('/api/checkout/completeuser')
      .json({ ...(await base()), acoDataPayload: 'not-an-envelope' })
    garbled.assertStatus(400)
    garbled.assertBodyContains({ code: 'invalid_envelope' })

    const badProfile = await client
      .post('/api/checkout/completeuser')
      .json({ ...(await base()), acoDataPayload: envelope({ profileName: 'x', size: '9' }) })
    badProfile.assertStatus(422)

    const noSize = await client
      .post('/api/checkout/completeuser')
      .json({ ...(await base()), acoDataPayload: envelope(profilePayload()) })
    noSize.assertStatus(400)

    const declined = await client
      .post('/api/checkout/completeuser')
      .json({ ...(await base()), stripeToken: await cardToken(TEST_CARDS.declinedAtSave) })
    declined.assertStatus(402)
    declined.assertBodyContains({
      code: 'card_declined',
      error: 'Your card was declined. Try another card.',
    })

    assert.isNull(await User.findBy('email', 'someone@example.test'))
    await product.refresh()
    assert.equal(product.stockTaken, 0)
  })

  test('a sold-out or released product is refused before anything is written', async ({
    client,
    assert,
  }) => {
    const soldOut = await productFor({ totalStock: 3, stockTaken: 3 })
    const released = await productFor({ releaseAt: DateTime.now().minus({ hours: 1 }) })
    const counts = async () => {
      const tables = ['users', 'profiles', 'orders', 'auth_access_tokens', 'email_messages']
      const gateway = ['sandbox_customers', 'sandbox_payment_methods']
      const result: Record<string, number> = {}
      for (const table of [...tables, ...gateway]) {
        const [row] = await db.from(table).count('* as total')
        result[table] = Number(row.total)
      }
      return result
    }
    const tokens = [await cardToken(), await cardToken()]
    const before = await counts()

    for (const [index, product, code] of [
      [0, soldOut, 'sold_out'],
      [1, released, 'released'],
    ] as const) {
      const response = await client.post('/api/checkout/completeuser').json({
        email: `late-${index}@example.test`,
        name: 'Late Buyer',
        productId: product.id,
        stripeToken: tokens[index],
        acoDataPayload: envelope({ ...profilePayload(), style: 'Black', size: '9' }),
      })
      response.assertStatus(409)
      assert.equal(response.body().code, code)
    }
    assert.deepEqual(await counts(), before)
  })
})

test.group('One-step checkout under concurrency', () => {
  test('simultaneous calls for one new e-mail create one account', async ({ client, assert }) => {
    const product = await productFor({ totalStock: 50 })
    const email = `race-${Date.now()}@example.test`
    const reference = `new-${createHash('sha256').update(email).digest('hex').slice(0, 24)}`
    const tokens = await Promise.all(Array.from({ length: 6 }, () => cardToken()))
    const lastLedgerRow = await db.from('payment_ledger').max('id as id').first()
    const lastRequest = await db.from('sandbox_requests').max('id as id').first()
    try {
      const responses = await Promise.all(
        tokens.map((stripeToken) =>
          client.post('/api/checkout/completeuser').json({
            email,
            name: 'Race Buyer',
            productId: product.id,
            stripeToken,
            acoDataPayload: envelope({ ...profilePayload(), style: 'Black', size: '9' }),
          })
        )
      )
      const statuses = responses.map((response) => response.status()).sort()
      assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409])
      for (const response of responses.filter((item) => item.status() === 409)) {
        assert.equal(response.body().code, 'account_exists')
      }
      assert.lengthOf(await User.query().where('email', email), 1)
      // The refused calls' cards were taken back at the gateway: only the winner's customer stays.
      assert.lengthOf(await db.from('sandbox_customers').where('reference', reference), 1)
    } finally {
      const users = await User.query().where('email', email)
      const ids = users.map((user) => user.id)
      await db.from('orders').whereIn('user_id', ids).delete()
      await db.from('email_messages').whereIn('user_id', ids).delete()
      await db.from('email_messages').where('to_address', email).delete()
      await db.from('payment_ledger').whereIn('user_id', ids).delete()
      await db.from('payment_ledger').whereIn('gateway_ref', tokens).delete()
      await db
        .from('payment_ledger')
        .where('id', '>', Number(lastLedgerRow?.id ?? 0))
        .where('kind', 'customer_delete')
        .delete()
      await db
        .from('payment_ledger')
        .where('idempotency_key', 'like', `%-user-${reference}-%`)
        .delete()
      const rows = await db.from('sandbox_customers').where('reference', reference)
      const customers = rows.map((row) => row.id)
      await db.from('sandbox_payment_methods').whereIn('customer_id', customers).delete()
      await db.from('sandbox_customers').whereIn('id', customers).delete()
      await db.from('sandbox_tokens').whereIn('id', tokens).delete()
      await db
        .from('sandbox_requests')
        .where('id', '>', Number(lastRequest?.id ?? 0))
        .delete()
      await db.from('users').whereIn('id', ids).delete()
      await db.from('products').where('id', product.id).delete()
    }
  })
})
