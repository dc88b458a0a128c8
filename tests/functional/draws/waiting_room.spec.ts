import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import limiter from '@adonisjs/limiter/services/main'
import testUtils from '@adonisjs/core/services/test_utils'
import type Product from '#catalog/models/product'
import { waitingRoom } from '#draws/services/waiting_room'
import { customerWithCard, productFor, profileFor } from '#tests/helpers'

/** A first-come drop whose sale opens in 5 minutes, its line forming 10 minutes before. */
function roomProduct(overrides: Record<string, unknown> = {}) {
  return productFor({
    totalStock: 100,
    stockTaken: 0,
    queueOpensAt: DateTime.now().plus({ minutes: 5 }).startOf('second'),
    queueMinutes: 10,
    queueRatePerMinute: 3,
    ...overrides,
  })
}

async function opensNow(product: Product, minutesAgo = 0) {
  product.queueOpensAt = DateTime.now().minus({ minutes: minutesAgo, seconds: 1 })
  await product.save()
}

test.group('Waiting room', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => limiter.clear())

  test('nobody reaches a purchase without a pass of their own that has not expired', async ({
    client,
    assert,
  }) => {
    const product = await roomProduct()
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const buy = (queuePass?: string) =>
      client.post('/api/checkout/withprofile').bearerToken(token).json({
        productId: product.id,
        style: 'Black',
        size: '9',
        profileId: profile.publicId,
        queuePass,
      })

    const early = await buy()
    early.assertStatus(409)
    assert.equal(early.body().code, 'queue_not_open')

    await opensNow(product)
    const noPass = await buy()
    noPass.assertStatus(403)
    assert.equal(noPass.body().code, 'queue_pass_required')
    const forged =
      waitingRoom.issuePass(product.id, user.id, Date.now() + 60_000).slice(0, -3) + 'abc'
    const someoneElses = waitingRoom.issuePass(product.id, user.id + 1, Date.now() + 60_000)
    const expired = waitingRoom.issuePass(product.id, user.id, Date.now() - 1000)
    for (const pass of [forged, someoneElses, expired]) {
      const refused = await buy(pass)
      refused.assertStatus(403)
      assert.equal(refused.body().code, 'queue_pass_required')
    }

    const joined = await client.post(`/api/products/${product.id}/queue`).bearerToken(token)
    joined.assertStatus(200)
    assert.equal(joined.body().state, 'admitted')
    const bought = await buy(joined.body().pass)
    bought.assertStatus(201)
    assert.equal(bought.body().order.status, 'pending')
  })

  test('the line forms N minutes before the sale, not earlier', async ({ client, assert }) => {
    const product = await roomProduct({
      queueOpensAt: DateTime.now().plus({ minutes: 30 }).startOf('second'),
    })
    const { token } = await customerWithCard()
    const tooEarly = await client.post(`/api/products/${product.id}/queue`).bearerToken(token)
    tooEarly.assertStatus(409)
    assert.equal(tooEarly.body().code, 'queue_not_open')
  })

  test('at the opening everyone in the window gets a random place; the line moves in that order', async ({
    client,
    assert,
  }) => {
    const product = await roomProduct()
    const customers = []
    for (let index = 0; index < 12; index++) {
      const customer = await customerWithCard()
      const waiting = await client
        .post(`/api/products/${product.id}/queue`)
        .bearerToken(customer.token)
      waiting.assertStatus(200)
      assert.equal(waiting.body().state, 'waiting')
      customers.push(customer)
    }

    await opensNow(product)
    const statusOf = async (token: string) => {
      const response = await client.get(`/api/products/${product.id}/queue`).bearerToken(token)
      response.assertStatus(200)
      return response.body()
    }
    const first = []
    for (const customer of customers) first.push(await statusOf(customer.token))
    const places = first.map((status) => status.place)
    assert.sameMembers(
      places,
      Array.from({ length: 12 }, (_, index) => index + 1)
    )
    // Arriving earlier gave no advantage: the places are not the order of arrival.
    assert.notDeepEqual(
      places,
      Array.from({ length: 12 }, (_, index) => index + 1)
    )
    for (const status of first) {
      if (status.place <= 3) {
        assert.equal(status.state, 'admitted')
        assert.isString(status.pass)
      } else {
        assert.equal(status.state, 'in_line')
        assert.equal(status.ahead, status.place - 4)
        assert.notProperty(status, 'pass')
      }
    }

    const late = await customerWithCard()
    const lateStatus = await client
      .post(`/api/products/${product.id}/queue`)
      .bearerToken(late.token)
    assert.equal(lateStatus.body().place, 13, 'a late arrival joins the end of the line')

    // A minute later the next three, by place, are let through.
    await opensNow(product, 1)
    for (const [index, customer] of customers.entries()) {
      const status = await statusOf(customer.token)
      assert.equal(status.place, places[index], 'a place never changes')
      assert.equal(status.state, status.place <= 6 ? 'admitted' : 'in_line')
    }
  })
})
