import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { sqlTime } from '#core/helpers/sql_time'
import testUtils from '@adonisjs/core/services/test_utils'
import Product from '#catalog/models/product'
import PromoCode from '#checkout/models/promo_code'
import EmailMessage from '#notifications/models/email_message'
import Order from '#orders/models/order'
import { checkoutService } from '#checkout/services/checkout_service'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import {
  adminWithToken,
  customerWithCard,
  customerWithToken,
  productFor,
  profileFor,
} from '#tests/helpers'

test.group('Checkout with a profile', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  // Fresh rate-limit counters per test (the suite's onTest hook does not reach grouped tests).

  test('takes a slot and answers the order with the spec fields', async ({ client, assert }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ priceCents: 2500, totalStock: 10, stockTaken: 3 })

    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'black', size: '9.5', profileId: profile.publicId })

    response.assertStatus(201)
    const { success, order } = response.body()
    assert.isTrue(success)
    assert.match(order.orderId, /^[0-9a-f-]{36}$/)
    assert.deepInclude(order, {
      productId: product.id,
      productTitle: product.title,
      price: 25,
      priceCents: 2500,
      style: 'Black',
      size: '9.5',
      email: user.email,
      name: user.name,
      status: 'pending',
      profileId: profile.publicId,
      promoCode: null,
    })
    assert.equal(order.hold.status, 'queued')
    assert.equal(order.hold.amountCents, 100)
    assert.equal(order.fee.status, 'none')
    assert.isString(order.orderDate)
    assert.notInclude(JSON.stringify(response.body()), '4242424242424242')

    await product.refresh()
    assert.equal(product.stockTaken, 4)
    const email = await EmailMessage.query().where('template', 'order_received').firstOrFail()
    assert.equal(email.toAddress, user.email)
    assert.include(email.textBody, order.orderNumber)
    assert.notInclude(email.textBody, order.orderId)
  })

  test('keeps a sealed copy of the profile that outlives edits and deletion', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user, { profileName: 'Home' })
    const product = await productFor()
    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'White', size: '10', profileId: profile.publicId })
    response.assertStatus(201)

    await profile.delete()
    const order = await Order.findByOrFail('publicId', response.body().order.orderId)
    assert.notInclude(order.acoVault!, '4242424242424242')
    const snapshot = checkoutService.openSnapshot(order)!
    assert.equal(snapshot.profile.profileName, 'Home')
    assert.equal(snapshot.card.number, '4242424242424242')
    assert.deepEqual(snapshot.order, {
      productId: product.id,
      productTitle: product.title,
      style: 'White',
      size: '10',
    })
  })

  test('missing data answers 400 insufficient checkout data', async ({ client }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor()
    const payloads = [
      {},
      { productId: product.id, style: 'Black', size: '9' },
      { style: 'Black', size: '9', profileId: profile.publicId },
      { productId: product.id, style: 'Black', profileId: profile.publicId },
      { productId: product.id, size: '9', profileId: profile.publicId },
      { productId: product.id, style: '', size: '9', profileId: profile.publicId },
    ]
    for (const payload of payloads) {
      const response = await client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json(payload)
      response.assertStatus(400)
      response.assertBodyContains({
        success: false,
        error: 'insufficient checkout data',
        code: 'insufficient_checkout_data',
      })
    }
  })

  test('refuses a size or style the product does not have', async ({ client, assert }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ totalStock: 5 })
    for (const [style, size, field] of [
      ['Black', 'XL', 'size'],
      ['Purple', '9', 'style'],
      ['Black', { nested: true }, 'size'],
    ] as const) {
      const response = await client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({ productId: product.id, style, size, profileId: profile.publicId })
      response.assertStatus(422)
      assert.property(response.body().errors, field)
    }
    await product.refresh()
    assert.equal(product.stockTaken, 0)
  })

  test('one-size products take OS, in any case', async ({ client }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ sizeType: 'OS', sizes: ['OS'], styles: 'OS' })
    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'os', size: 'os', profileId: profile.publicId })
    response.assertStatus(201)
    response.assertBodyContains({ order: { size: 'OS', style: 'OS' } })
  })

  test("refuses another customer's profile", async ({ client }) => {
    const { token } = await customerWithCard()
    const other = await customerWithToken()
    const theirs = await profileFor(other.user)
    const product = await productFor()
    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: theirs.publicId })
    response.assertStatus(404)
    response.assertBodyContains({ code: 'profile_not_found' })
  })

  test('needs a card on file', async ({ client, assert }) => {
    const { user, token } = await customerWithToken()
    const profile = await profileFor(user)
    const product = await productFor()
    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
    response.assertStatus(402)
    response.assertBodyContains({ success: false, code: 'card_required' })
    assert.lengthOf(await Order.query().where('user_id', user.id), 0)
  })

  test('sold out, released and unavailable products are refused', async ({ client }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const soldOut = await productFor({ totalStock: 2, stockTaken: 2 })
    const released = await productFor({ releaseAt: DateTime.now().minus({ minutes: 1 }) })
    const hidden = await productFor({ avail: false })
    const body = (product: Product) => ({
      productId: product.id,
      style: 'Black',
      size: '9',
      profileId: profile.publicId,
    })

    const first = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json(body(soldOut))
    first.assertStatus(409)
    first.assertBodyContains({ code: 'sold_out' })

    const second = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json(body(released))
    second.assertStatus(409)
    second.assertBodyContains({ code: 'released' })

    const third = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json(body(hidden))
    third.assertStatus(404)
    third.assertBodyContains({ code: 'product_not_found' })
  })

  test('a sell-out is remembered, but a slot given back or more stock sells at once', async ({
    client,
  }) => {
    const admin = await adminWithToken()
    const product = await productFor({ totalStock: 1, stockTaken: 0 })
    const press = async () => {
      const { user, token } = await customerWithCard()
      const profile = await profileFor(user)
      return client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
    }

    const bought = await press()
    bought.assertStatus(201)
    const refused = await press()
    refused.assertStatus(409)
    refused.assertBodyContains({ code: 'sold_out' })

    // The console cancels the order: its slot goes back and is sold again straight away.
    const cancelled = await client
      .delete(`/api/admin/orders/${bought.body().order.orderId}`)
      .bearerToken(admin.token)
    cancelled.assertStatus(200)
    const afterCancel = await press()
    afterCancel.assertStatus(201)
    const soldAgain = await press()
    soldAgain.assertBodyContains({ code: 'sold_out' })

    // More stock from the console sells at once too.
    const raised = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(admin.token)
      .json({ totalStock: 2 })
    raised.assertStatus(200)
    const afterRaise = await press()
    afterRaise.assertStatus(201)
    const soldOutOnceMore = await press()
    soldOutOnceMore.assertBodyContains({ code: 'sold_out' })
  })

  test('a press on a product remembered as sold out is answered before the token is checked', async ({
    client,
    assert,
  }) => {
    const product = await productFor({ totalStock: 1, stockTaken: 0 })
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const body = { productId: product.id, style: 'Black', size: '9', profileId: profile.publicId }
    const pressWith = async (bearer: string) => {
      const response = await client.post('/api/checkout/withprofile').bearerToken(bearer).json(body)
      return { status: response.status(), code: response.body().code }
    }
    const unknownToken = 'oat_MQ.bm90LWEtcmVhbC10b2tlbg'

    // While slots remain, a bad token is refused first, as for any other product.
    assert.deepInclude(await pressWith(unknownToken), { status: 401 })
    assert.deepInclude(await pressWith(token), { status: 201 })
    assert.deepEqual(await pressWith(token), { status: 409, code: 'sold_out' })

    // The last slot is gone and remembered: the answer is the public one, whoever asks.
    assert.deepEqual(await pressWith(unknownToken), { status: 409, code: 'sold_out' })
    const anonymous = await client.post('/api/checkout/withprofile').json(body)
    anonymous.assertStatus(409)
    anonymous.assertBodyContains({ success: false, code: 'sold_out' })

    // Once the memory has lapsed, the token is checked first again.
    soldOutMemory.clear()
    assert.deepInclude(await pressWith(unknownToken), { status: 401 })
    assert.lengthOf(await Order.query().where('product_id', product.id), 1)
  })

  test('a second active order for the same product and profile is a duplicate', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithCard()
    const home = await profileFor(user, { profileName: 'Home' })
    const office = await profileFor(user, { profileName: 'Office' })
    const product = await productFor({ totalStock: 10 })
    const checkout = (profileId: string, size = '9') =>
      client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({ productId: product.id, style: 'Black', size, profileId })

    const firstOrder = await checkout(home.publicId)
    firstOrder.assertStatus(201)
    const again = await checkout(home.publicId, '10')
    again.assertStatus(409)
    again.assertBodyContains({ success: false, code: 'duplicate' })
    const otherProfile = await checkout(office.publicId)
    otherProfile.assertStatus(201)

    await product.refresh()
    assert.equal(product.stockTaken, 2)
  })

  test('a cancelled order frees the profile and the slot', async ({ client, assert }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ totalStock: 1 })
    const checkout = () =>
      client
        .post('/api/checkout/withprofile')
        .bearerToken(token)
        .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })

    const first = await checkout()
    first.assertStatus(201)
    const { orderSettlement } = await import('#payments/services/order_settlement')
    const order = await Order.findByOrFail('publicId', first.body().order.orderId)
    const result = await orderSettlement.cancel(order, { reason: 'customer_request' })
    assert.isTrue(result.cancelled)
    assert.include(await orderSettlement.cancel(order), { cancelled: false })
    await product.refresh()
    assert.equal(product.stockTaken, 0)

    const again = await checkout()
    again.assertStatus(201)
    await product.refresh()
    assert.equal(product.stockTaken, 1)
  })

  test('a promo code takes its percent off the fee and is kept on the order', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ priceCents: 4500 })
    const promo = await PromoCode.create({
      code: 'SAVE15',
      percent: 15,
      active: true,
      uses: 0,
      maxUses: 5,
    })
    const response = await client.post('/api/checkout/withprofile').bearerToken(token).json({
      productId: product.id,
      style: 'Black',
      size: '9',
      profileId: profile.publicId,
      promoCode: 'save15',
    })
    response.assertStatus(201)
    response.assertBodyContains({
      order: {
        priceCents: 3825,
        price: 38.25,
        basePriceCents: 4500,
        promoCode: 'SAVE15',
        promoPercent: 15,
      },
    })
    await promo.refresh()
    assert.equal(promo.uses, 1)
  })

  test('expired, inactive, not yet started and used-up promo codes are refused without a write', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor()
    await PromoCode.createMany([
      {
        code: 'OLD',
        percent: 10,
        active: true,
        uses: 0,
        maxUses: null,
        expiresAt: DateTime.now().minus({ days: 1 }),
      },
      { code: 'OFF', percent: 10, active: false, uses: 0, maxUses: null },
      {
        code: 'SOON',
        percent: 10,
        active: true,
        uses: 0,
        maxUses: null,
        startsAt: DateTime.now().plus({ days: 1 }),
      },
      { code: 'GONE', percent: 10, active: true, uses: 3, maxUses: 3 },
    ])
    for (const code of ['OLD', 'OFF', 'SOON', 'GONE', 'NOPE']) {
      const response = await client.post('/api/checkout/withprofile').bearerToken(token).json({
        productId: product.id,
        style: 'Black',
        size: '9',
        profileId: profile.publicId,
        promoCode: code,
      })
      response.assertStatus(422)
      response.assertBodyContains({ code: 'promo_invalid' })
    }
    await product.refresh()
    assert.equal(product.stockTaken, 0)
    const gone = await PromoCode.findByOrFail('code', 'GONE')
    assert.equal(gone.uses, 3)
  })

  test('a limited promo is used at most its limit, and a failed checkout gives the use back', async ({
    client,
    assert,
  }) => {
    const product = await productFor({ totalStock: 10 })
    const promo = await PromoCode.create({
      code: 'ONCE',
      percent: 50,
      active: true,
      uses: 0,
      maxUses: 1,
    })
    const buyers = await Promise.all([customerWithCard(), customerWithCard()])
    const profiles = await Promise.all(buyers.map(({ user }) => profileFor(user)))

    const soldOut = await productFor({ totalStock: 0 })
    const refused = await client
      .post('/api/checkout/withprofile')
      .bearerToken(buyers[0].token)
      .json({
        productId: soldOut.id,
        style: 'Black',
        size: '9',
        profileId: profiles[0].publicId,
        promoCode: 'ONCE',
      })
    refused.assertStatus(409)
    await promo.refresh()
    assert.equal(promo.uses, 0)

    const statuses: number[] = []
    for (const [index, buyer] of buyers.entries()) {
      const response = await client
        .post('/api/checkout/withprofile')
        .bearerToken(buyer.token)
        .json({
          productId: product.id,
          style: 'Black',
          size: '9',
          profileId: profiles[index].publicId,
          promoCode: 'ONCE',
        })
      statuses.push(response.status())
    }
    assert.deepEqual(statuses, [201, 422])
    await promo.refresh()
    assert.equal(promo.uses, 1)
  })

  test('anonymous callers get 401', async ({ client }) => {
    const response = await client.post('/api/checkout/withprofile').json({})
    response.assertStatus(401)
    response.assertBodyContains({ code: 'unauthorized' })
  })

  test('the checkout takes the tokens every other call takes: forged, expired and logged-out ones get 401', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ totalStock: 10 })
    const press = (bearer: string) =>
      client
        .post('/api/checkout/withprofile')
        .bearerToken(bearer)
        .json({ productId: product.id, style: 'black', size: '9.5', profileId: profile.publicId })

    const forged = await press(`${token.slice(0, -4)}AAAA`)
    forged.assertStatus(401)
    forged.assertBody({ success: false, error: 'Please log in to continue.', code: 'unauthorized' })

    const tokens = () => db.from('auth_access_tokens').where('tokenable_id', user.id)
    await tokens().update({ expires_at: sqlTime(DateTime.now().minus({ seconds: 1 })) })
    const expired = await press(token)
    expired.assertStatus(401)
    await tokens().update({ expires_at: null })

    const bought = await press(token)
    bought.assertStatus(201)
    assert.equal(bought.body().order.email, user.email)

    const logout = await client.post('/api/logout').bearerToken(token)
    logout.assertStatus(200)
    const afterLogout = await press(token)
    afterLogout.assertStatus(401)
    await product.refresh()
    assert.equal(product.stockTaken, 1)
  })

  test('checkout is rate-limited per customer', async ({ client, assert }) => {
    const { token } = await customerWithCard()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 31; attempt++) {
      const response = await client.post('/api/checkout/withprofile').bearerToken(token).json({})
      statuses.push(response.status())
    }
    assert.deepEqual(statuses.slice(0, 30), Array(30).fill(400))
    assert.equal(statuses[30], 429)

    // Another customer is not affected.
    const other = await customerWithCard()
    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(other.token)
      .json({})
    response.assertStatus(400)
  })
})
