import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type Product from '#catalog/models/product'
import { clock } from '#core/services/clock'
import { waitingRoom } from '#draws/services/waiting_room'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import { roundTime, verifyLine, type LineProof } from '#shared/draw'
import { customerWithCard, customerWithToken, productFor, profileFor } from '#tests/helpers'
import { distinctCard, startRecordedRelay } from '#tests/support/draws'

/** A customer with a card on file and a billing address of their own. */
function lineCustomer(index: number, overrides: { card?: string; line1?: string } = {}) {
  return customerWithCard(overrides.card ?? distinctCard(500 + index), {
    billingAddress: {
      line1: overrides.line1 ?? `${index + 1} Line Street`,
      line2: null,
      city: 'Springfield',
      postal_code: '12345',
      state: 'IL',
      country: 'US',
    },
  })
}

/**
 * A first-come drop whose sale opens when recorded quicknet round `round` is published: its line
 * closes a minute before and is ordered from that round. Time is set to 5 minutes before the
 * sale, the line forming 10 minutes before it.
 */
async function recordedRoom(round = 657413 as keyof typeof RECORDED_ROUNDS, rate = 3) {
  const opensAt = roundTime(round) * 1000
  clock.freeze(opensAt - 5 * 60_000)
  const product = await productFor({
    totalStock: 100,
    stockTaken: 0,
    releaseAt: DateTime.fromMillis(opensAt + 3 * 86_400_000),
    queueOpensAt: DateTime.fromMillis(opensAt),
    queueMinutes: 10,
    queueRatePerMinute: rate,
  })
  return {
    product,
    opensAt,
    open: (minutes = 0) => clock.freeze(opensAt + 1000 + minutes * 60_000),
  }
}

async function join(client: any, product: Product, token: string) {
  return client.post(`/api/products/${product.id}/queue`).bearerToken(token)
}

test.group('Waiting room', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('joining needs a card on file; one place per card and per billing address', async ({
    client,
    assert,
  }) => {
    const room = await recordedRoom()
    const noCard = await customerWithToken()
    const refused = await join(client, room.product, noCard.token)
    refused.assertStatus(402)
    assert.equal(refused.body().code, 'card_required')

    const first = await lineCustomer(0, { line1: '1 Main Street Apt 4' })
    const result69 = await join(client, room.product, first.token)
    result69.assertStatus(200)
    // Joining again is the same place, not a second one.
    const again = await join(client, room.product, first.token)
    again.assertStatus(200)
    const third = await join(client, room.product, first.token)
    assert.equal(again.body().memberId, third.body().memberId)

    const sameCard = await lineCustomer(1, { card: distinctCard(500) })
    const cardRefused = await join(client, room.product, sameCard.token)
    cardRefused.assertStatus(409)
    assert.equal(cardRefused.body().code, 'duplicate')
    assert.include(cardRefused.body().error, 'card')

    const sameAddress = await lineCustomer(2, { line1: '1 main st #4' })
    const addressRefused = await join(client, room.product, sameAddress.token)
    addressRefused.assertStatus(409)
    assert.include(addressRefused.body().error, 'address')

    const figures = await waitingRoom.figures(room.product.id)
    assert.equal(figures.inLine, 1)
  })

  test('places come from the committed beacon round and anyone can check them', async ({
    client,
    assert,
  }) => {
    const relay = await startRecordedRelay()
    try {
      const room = await recordedRoom(657413, 3)
      const customers = []
      for (let index = 0; index < 8; index++) {
        const customer = await lineCustomer(index)
        const waiting = await join(client, room.product, customer.token)
        waiting.assertStatus(200)
        assert.equal(waiting.body().state, 'waiting')
        assert.equal(waiting.body().round, 657413)
        customers.push({ ...customer, memberId: waiting.body().memberId as string })
      }
      const formingResponse = await client.get(`/api/products/${room.product.id}/queue/proof`)
      const forming: LineProof = formingResponse.body()
      assert.equal(forming.status, 'forming')
      assert.equal(forming.commitment!.round, 657413)
      assert.isNull(forming.seed)

      // In the last minute before the sale the line is closed: later arrivals come after it.
      clock.freeze(room.opensAt - 30_000)
      const late = await lineCustomer(20)
      const result119 = await join(client, room.product, late.token)
      result119.assertStatus(200)

      room.open()
      const statuses = []
      for (const customer of customers) {
        const response = await client
          .get(`/api/products/${room.product.id}/queue`)
          .bearerToken(customer.token)
        response.assertStatus(200)
        statuses.push(response.body())
      }
      const proofResponse = await client.get(`/api/products/${room.product.id}/queue/proof`)
      const proof: LineProof = proofResponse.body()
      assert.equal(proof.status, 'ordered')
      assert.deepEqual(proof.beacon, RECORDED_ROUNDS[657413])
      assert.lengthOf(proof.members, 8)
      assert.notInclude(JSON.stringify(proof), '@')
      const verification = await verifyLine(proof)
      assert.isTrue(verification.ok, JSON.stringify(verification.checks))
      for (const [index, status] of statuses.entries()) {
        const place = proof.order.indexOf(customers[index].memberId) + 1
        assert.equal(status.place, place, 'the place the customer sees is the published one')
        assert.equal(status.state, place <= 3 ? 'admitted' : 'in_line')
      }
      const lateStatus = await client
        .get(`/api/products/${room.product.id}/queue`)
        .bearerToken(late.token)
      assert.equal(lateStatus.body().place, 9, 'a late arrival comes after the line')
    } finally {
      await relay.close()
    }
  })

  test('a pass is for one checkout of its own customer', async ({ client, assert }) => {
    const relay = await startRecordedRelay()
    try {
      const room = await recordedRoom(657413, 50)
      const first = await lineCustomer(0)
      const second = await lineCustomer(1)
      const profile = await profileFor(first.user)
      const otherProfile = await profileFor(first.user, { profileName: 'Second profile' })
      const secondProfile = await profileFor(second.user)
      for (const customer of [first, second]) {
        const result163 = await join(client, room.product, customer.token)
        result163.assertStatus(200)
      }
      const buy = (token: string, profileId: string, queuePass?: string) =>
        client.post('/api/checkout/withprofile').bearerToken(token).json({
          productId: room.product.id,
          style: 'Black',
          size: '9',
          profileId,
          queuePass,
        })
      const early = await buy(first.token, profile.publicId)
      early.assertStatus(409)
      assert.equal(early.body().code, 'queue_not_open')

      room.open()
      const status = await client
        .get(`/api/products/${room.product.id}/queue`)
        .bearerToken(first.token)
      assert.equal(status.body().state, 'admitted')
      const pass = status.body().pass as string
      const noPass = await buy(first.token, profile.publicId)
      noPass.assertStatus(403)
      assert.equal(noPass.body().code, 'queue_pass_required')
      const someoneElses = await buy(second.token, secondProfile.publicId, pass)
      someoneElses.assertStatus(403)
      const forged = await buy(first.token, profile.publicId, `${pass.slice(0, -3)}abc`)
      forged.assertStatus(403)

      const bought = await buy(first.token, profile.publicId, pass)
      bought.assertStatus(201)
      const twice = await buy(first.token, otherProfile.publicId, pass)
      twice.assertStatus(403)
      assert.equal(twice.body().code, 'queue_pass_spent')
      const after = await client
        .get(`/api/products/${room.product.id}/queue`)
        .bearerToken(first.token)
      assert.equal(after.body().state, 'spent')

      // A pass not used in its 10 minutes is gone.
      clock.travel(11 * 60_000)
      const expired = await client
        .get(`/api/products/${room.product.id}/queue`)
        .bearerToken(second.token)
      assert.oneOf(expired.body().state, ['admitted', 'expired'])
      if (expired.body().state === 'admitted') {
        clock.travel(11 * 60_000)
        const gone = await client
          .get(`/api/products/${room.product.id}/queue`)
          .bearerToken(second.token)
        assert.equal(gone.body().state, 'expired')
        const tooLate = await buy(second.token, secondProfile.publicId, expired.body().pass)
        tooLate.assertStatus(403)
      }
      const result216 = await waitingRoom.figures(room.product.id)
      assert.equal(result216.passesSpent, 1)
    } finally {
      await relay.close()
    }
  })

  test('with no beacon the line waits to be ordered, and /health says so', async ({
    client,
    assert,
  }) => {
    const room = await recordedRoom()
    const customer = await lineCustomer(0)
    const result228 = await join(client, room.product, customer.token)
    result228.assertStatus(200)
    room.open()
    const status = await client
      .get(`/api/products/${room.product.id}/queue`)
      .bearerToken(customer.token)
    assert.equal(status.body().state, 'drawing')
    assert.equal(status.body().round, 657413)
    const health = await client.get('/health')
    assert.deepInclude(health.body().draws.linesWaitingForBeacon, {
      productId: room.product.id,
      round: 657413,
    })
    const figures = await waitingRoom.figures(room.product.id)
    assert.isTrue(figures.waitingForBeacon)
  })

  test('the line forms N minutes before the sale, not earlier', async ({ client, assert }) => {
    const product = await productFor({
      totalStock: 100,
      queueOpensAt: DateTime.now().plus({ minutes: 30 }).startOf('second'),
      queueMinutes: 10,
      queueRatePerMinute: 3,
    })
    const customer = await lineCustomer(0)
    const tooEarly = await join(client, product, customer.token)
    tooEarly.assertStatus(409)
    assert.equal(tooEarly.body().code, 'queue_not_open')
  })
})
