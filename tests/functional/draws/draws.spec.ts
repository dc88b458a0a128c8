import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import EmailMessage from '#notifications/models/email_message'
import { clock } from '#core/services/clock'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { drawRunner } from '#draws/services/draw_runner'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import {
  drawRound,
  drawResult,
  merkleRoot,
  roundTime,
  sha256Hex,
  verifyDraw,
  type DrawProof,
} from '#shared/draw'
import {
  DRAW_CARDS,
  distinctCard,
  drawProduct,
  enterDraw,
  recordedDraw,
  startRecordedRelay,
} from '#tests/support/draws'
import { adminWithToken, freshStaffToken, placeHolds } from '#tests/helpers'

async function proofOf(client: any, product: Product): Promise<DrawProof> {
  const response = await client.get(`/api/products/${product.id}/draw`)
  response.assertStatus(200)
  return response.body()
}

async function mailsOf(product: Product, template: string) {
  const orders = await Order.query().where('product_id', product.id)
  return EmailMessage.query()
    .where('template', template)
    .whereIn(
      'order_id',
      orders.map((order) => order.id)
    )
}

test.group('Draw releases', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the commitment is published when entries open, never the seed', async ({
    client,
    assert,
  }) => {
    const later = await drawProduct({
      entryOpensAt: DateTime.now().plus({ hours: 1 }).startOf('second'),
      entryClosesAt: DateTime.now().plus({ hours: 2 }).startOf('second'),
    })
    const before = await proofOf(client, later)
    assert.equal(before.status, 'not_open')
    assert.isNull(before.commitment)

    const product = await drawProduct({ totalStock: 3 })
    const proof = await proofOf(client, product)
    assert.equal(proof.status, 'open')
    const commitment = proof.commitment!
    assert.equal(commitment.slots, 3)
    assert.equal(commitment.round, drawRound(product.entryClosesAt!.toJSDate()))
    assert.isAtLeast(roundTime(commitment.round), product.entryClosesAt!.toSeconds() + 60)
    assert.equal(
      commitment.chainHash,
      '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971'
    )
    assert.match(commitment.digest, /^[0-9a-f]{64}$/)
    assert.isNull(proof.seed)
    assert.deepEqual(proof.entries, [])
    const result79 = await verifyDraw(proof)
    assert.isTrue(result79.ok)
    const stored = await db.from('draws').where('product_id', product.id).first()
    assert.notInclude(JSON.stringify(proof), stored.seed)
    // The commitment stands: asked again, the same digest.
    const result83 = await proofOf(client, product)
    assert.equal(result83.commitment!.digest, commitment.digest)
    const shown = await client.get(`/api/products/${product.id}`)
    assert.notInclude(JSON.stringify(shown.body()), stored.seed)
  })

  test('entering: order Entered, $1.00 check placed, receipt with commitment, round and entry id', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct()
    const { token, response } = await enterDraw(client, product, 0)
    response.assertStatus(201)
    assert.equal(response.body().order.status, 'entered')
    await product.refresh()
    assert.equal(product.stockTaken, 0, 'an entry takes no slot')

    await placeHolds()
    const orders = await client.get('/api/user/orders').bearerToken(token)
    const [order] = orders.body()
    assert.equal(order.status, 'entered')
    assert.equal(order.hold.status, 'placed')
    assert.match(order.drawEntryId, /^[0-9a-f-]{36}$/)
    const proof = await proofOf(client, product)
    const stored = await Order.findByOrFail('publicId', order.orderId)
    const email = await EmailMessage.query()
      .where('template', 'draw_entered')
      .where('order_id', stored.id)
      .firstOrFail()
    assert.include(email.subject, 'You are in the draw')
    assert.include(email.textBody, proof.commitment!.digest)
    assert.include(email.textBody, `round ${proof.commitment!.round}`)
    assert.include(email.textBody, order.drawEntryId)
  })

  test('one entry per person: by account, by the card actually checked and by address', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct({ totalStock: 10 })
    const first = await enterDraw(client, product, 0, { street: '1 Main Street Apt 4' })
    first.response.assertStatus(201)

    // The profile's typed card is not what counts: another card on file is another card...
    const sameTypedCard = await enterDraw(client, product, 1, { profileCard: DRAW_CARDS[0] })
    sameTypedCard.response.assertStatus(201)
    // ...and the same card on file is the same card, whatever the profile says.
    const sameCardOnFile = await enterDraw(client, product, 2, {
      card: distinctCard(0),
      profileCard: DRAW_CARDS[3],
    })
    sameCardOnFile.response.assertStatus(409)
    assert.equal(sameCardOnFile.response.body().code, 'duplicate')
    assert.include(sameCardOnFile.response.body().errors.cardOnFile, 'change the card on file')

    const sameAddress = await enterDraw(client, product, 3, { street: '1 main st #4' })
    sameAddress.response.assertStatus(409)
    assert.include(sameAddress.response.body().error, 'address')

    const { token } = await adminWithToken()
    const view = await client.get(`/api/admin/draws/${product.id}`).bearerToken(token)
    view.assertStatus(200)
    assert.deepEqual(view.body().blocked, { account: 0, card: 1, address: 1 })
    assert.equal(view.body().entryCount, 2)
  })

  test('entries are taken only inside the window, by the server clock', async ({
    client,
    assert,
  }) => {
    const early = await drawProduct({ entryOpensAt: DateTime.now().plus({ minutes: 5 }) })
    const before = await enterDraw(client, early, 0)
    before.response.assertStatus(409)
    assert.equal(before.response.body().code, 'draw_not_open')

    const product = await drawProduct({ entryClosesAt: DateTime.now().plus({ minutes: 1 }) })
    const inTime = await enterDraw(client, product, 1)
    inTime.response.assertStatus(201)
    clock.travel(61_000)
    const late = await enterDraw(client, product, 2)
    late.response.assertStatus(409)
    assert.equal(late.response.body().code, 'draw_closed')
    const result164 = await Order.query().where('product_id', product.id)
    assert.equal(result164.length, 1)
    const proof = await proofOf(client, product)
    assert.equal(proof.status, 'closed')
    assert.equal(proof.entryCount, 1)
    assert.equal(proof.entriesRoot, merkleRoot(proof.entries))
  })

  test('the console and the import refuse changes to a committed draw with draw_committed', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const upcoming = await drawProduct({
      entryOpensAt: DateTime.now().plus({ hours: 1 }).startOf('second'),
      entryClosesAt: DateTime.now().plus({ hours: 2 }).startOf('second'),
    })
    const stillFree = await client
      .put(`/api/admin/products/${upcoming.id}`)
      .bearerToken(token)
      .json({ totalStock: 5 })
    stillFree.assertStatus(200)

    const product = await drawProduct({ totalStock: 2 })
    for (const change of [
      { totalStock: 3 },
      { entryClosesAt: DateTime.now().plus({ days: 1 }).toISO() },
      { entryOpensAt: DateTime.now().minus({ days: 1 }).toISO() },
      { releaseMode: 'first-come' },
    ]) {
      const refused = await client
        .put(`/api/admin/products/${product.id}`)
        .bearerToken(token)
        .json(change)
      refused.assertStatus(409)
      assert.equal(refused.body().code, 'draw_committed', JSON.stringify(change))
    }
    const renamed = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ productTitle: 'Renamed draw' })
    renamed.assertStatus(200)
    await product.refresh()
    assert.equal(product.totalStock, 2)

    const { importProducts } = await import('#catalog/services/product_import')
    const { writeFile, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const file = `${tmpdir()}/dropslot-draw-import-${process.pid}-${product.id}.json`
    await writeFile(
      file,
      JSON.stringify([
        { slug: product.slug, productTitle: product.title, price: 20, totalStock: 9 },
      ])
    )
    try {
      const report = await importProducts(file, { label: 'test' })
      assert.lengthOf(report.errors, 1)
      assert.include(report.errors[0].error, 'committed')
    } finally {
      await rm(file, { force: true })
    }
    await product.refresh()
    assert.equal(product.totalStock, 2)
  })

  test('a draw on a recorded quicknet round: winners by the rule, alternates ranked, proof verifies', async ({
    client,
    assert,
  }) => {
    const relay = await startRecordedRelay()
    try {
      const draw = await recordedDraw(657413, { totalStock: 2 })
      const entrants = []
      for (let index = 0; index < 5; index++) {
        entrants.push(
          await enterDraw(client, draw.product, index, {
            card: index === 4 ? '4000000000000341' : distinctCard(index),
          })
        )
      }
      for (const entrant of entrants) entrant.response.assertStatus(201)
      // The last entrant's card check is declined: that entry takes no part.
      await placeHolds()
      // The clock jumps past the close and the round: each call is a fresh sign-in.
      const tooSoon = await client
        .post(`/api/admin/draws/${draw.product.id}/run`)
        .bearerToken(await freshStaffToken())
        .json({})
      tooSoon.assertStatus(409)
      assert.equal(tooSoon.body().code, 'draw_not_closed')

      draw.afterClose()
      const closed = await proofOf(client, draw.product)
      assert.equal(closed.status, 'closed')
      assert.lengthOf(closed.entries, 4, 'the declined entry is not in the frozen list')
      const notYet = await client
        .post(`/api/admin/draws/${draw.product.id}/run`)
        .bearerToken(await freshStaffToken())
        .json({})
      notYet.assertStatus(409)
      assert.equal(notYet.body().code, 'beacon_not_due')

      draw.afterRound()
      const run = await client
        .post(`/api/admin/draws/${draw.product.id}/run`)
        .bearerToken(await freshStaffToken())
        .json({})
      run.assertStatus(200)
      assert.isTrue(run.body().drawnNow)
      assert.equal(run.body().round, 657413)
      assert.equal(run.body().skipped, 1)
      assert.lengthOf(run.body().winners, 2)
      assert.lengthOf(run.body().alternates, 2)
      assert.include(relay.requests, `/${RECORDED_ROUNDS[657413].chainHash}/public/657413`)

      const proof = await proofOf(client, draw.product)
      assert.equal(proof.status, 'drawn')
      assert.deepEqual(proof.beacon, RECORDED_ROUNDS[657413])
      assert.equal(sha256Hex(proof.seed!), proof.commitment!.seedHash)
      assert.notInclude(JSON.stringify(proof), '@')
      const declined = await Order.query()
        .where('product_id', draw.product.id)
        .where('hold_status', 'declined')
        .firstOrFail()
      const declinedEntry = await db.from('draw_entries').where('order_id', declined.id).first()
      const eligible = proof.entries.filter((id) => id !== declinedEntry.public_id)
      assert.deepEqual(drawResult(proof.seed!, RECORDED_ROUNDS[657413].randomness, eligible, 2), {
        winners: proof.winners,
        alternates: proof.alternates,
      })
      const verification = await verifyDraw(proof)
      assert.isTrue(verification.ok, JSON.stringify(verification.checks))

      const orders = await Order.query().where('product_id', draw.product.id)
      const byEntry = new Map<string, Order>()
      for (const order of orders) {
        const entry = await db.from('draw_entries').where('order_id', order.id).first()
        byEntry.set(entry.public_id, order)
      }
      for (const entryId of proof.winners) {
        assert.equal(byEntry.get(entryId)!.status, 'pending')
        assert.equal(byEntry.get(entryId)!.holdStatus, 'placed')
      }
      for (const entryId of proof.alternates) {
        const order = byEntry.get(entryId)!
        assert.equal(order.status, 'cancelled')
        assert.equal(order.holdStatus, 'released')
        assert.equal(order.failReason, 'draw_not_selected')
        assert.equal(order.feeStatus, 'none')
      }
      await draw.product.refresh()
      assert.equal(draw.product.stockTaken, 2)
      assert.lengthOf(await mailsOf(draw.product, 'draw_won'), 2)
      assert.lengthOf(await mailsOf(draw.product, 'draw_not_selected'), 2)

      const again = await client
        .post(`/api/admin/draws/${draw.product.id}/run`)
        .bearerToken(await freshStaffToken())
        .json({})
      again.assertStatus(200)
      assert.isFalse(again.body().drawnNow)
      assert.equal(again.body().moved, 0)
      assert.deepEqual(again.body().winners, run.body().winners)
      assert.lengthOf(await mailsOf(draw.product, 'draw_won'), 2)

      const view = await client
        .get(`/api/admin/draws/${draw.product.id}`)
        .bearerToken(await freshStaffToken())
      assert.isTrue(view.body().verification.ok)
      assert.isTrue(view.body().settled)
    } finally {
      await relay.close()
    }
  })

  test('with no beacon to be had the draw waits, and the console and /health say so', async ({
    client,
    assert,
  }) => {
    const draw = await recordedDraw(657413)
    const entrant = await enterDraw(client, draw.product, 0)
    entrant.response.assertStatus(201)
    await placeHolds()
    draw.afterRound()
    const { token } = await adminWithToken()
    const waiting = await client
      .post(`/api/admin/draws/${draw.product.id}/run`)
      .bearerToken(token)
      .json({})
    waiting.assertStatus(503)
    assert.equal(waiting.body().code, 'beacon_unavailable')
    const view = await client.get(`/api/admin/draws/${draw.product.id}`).bearerToken(token)
    assert.isTrue(view.body().waitingForBeacon)
    assert.include(view.body().beaconError, 'DRAND_URLS')
    const health = await client.get('/health')
    assert.equal(health.body().draws.status, 'waiting_for_beacon')
    assert.deepInclude(health.body().draws.waitingForBeacon, {
      productId: draw.product.id,
      round: 657413,
    })
    const entered = await Order.query().where('product_id', draw.product.id).firstOrFail()
    assert.equal(entered.status, 'entered', 'nothing is drawn without the beacon')

    const relay = await startRecordedRelay()
    try {
      await drawRunner.sweep()
      const proof = await proofOf(client, draw.product)
      assert.equal(proof.status, 'drawn')
      const after = await client.get('/health')
      assert.equal(after.body().draws.status, 'ok')
    } finally {
      await relay.close()
    }
  })

  test('a beacon from a file is accepted only if its signature verifies', async ({
    client,
    assert,
  }) => {
    const draw = await recordedDraw(123)
    for (let index = 0; index < 3; index++) {
      const result382 = await enterDraw(client, draw.product, index)
      result382.response.assertStatus(201)
    }
    await placeHolds()
    draw.afterRound()
    const beacon = RECORDED_ROUNDS[123]
    const flipped = `${beacon.signature.slice(0, 40)}${beacon.signature[40] === 'a' ? 'b' : 'a'}${beacon.signature.slice(41)}`
    for (const forged of [
      { ...beacon, signature: flipped },
      { ...beacon, randomness: sha256Hex('chosen by the operator') },
      RECORDED_ROUNDS[42],
    ]) {
      const refused = await drawRunner
        .run(draw.product.id, { label: 'test' }, { beacon: forged })
        .then(
          () => null,
          (error) => error
        )
      assert.equal(refused?.code, 'beacon_invalid')
    }
    const result401 = await proofOf(client, draw.product)
    assert.equal(result401.status, 'closed')
    const report = await drawRunner.run(draw.product.id, { label: 'test' }, { beacon })
    assert.isTrue(report.drawnNow)
    const result404 = await verifyDraw(await proofOf(client, draw.product))
    assert.isTrue(result404.ok)
  })

  test('the inclusion proof of an entry, from its id; unknown ids are 404s', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct({ entryClosesAt: DateTime.now().plus({ minutes: 1 }) })
    const entrants = []
    for (let index = 0; index < 3; index++) entrants.push(await enterDraw(client, product, index))
    const orders = await client.get('/api/user/orders').bearerToken(entrants[1].token)
    const entryId = orders.body()[0].drawEntryId
    const early = await client.get(`/api/products/${product.id}/draw/entries/${entryId}`)
    early.assertStatus(409)
    clock.travel(61_000)
    const response = await client.get(`/api/products/${product.id}/draw/entries/${entryId}`)
    response.assertStatus(200)
    const proof = await proofOf(client, product)
    const verification = await verifyDraw(proof, { inclusion: response.body() })
    assert.equal(verification.checks.at(-1)!.status, 'pass')
    const unknown = await client.get(
      `/api/products/${product.id}/draw/entries/00000000-0000-0000-0000-000000000000`
    )
    unknown.assertStatus(404)
    const malformed = await client.get(`/api/products/${product.id}/draw/entries/not-an-id`)
    malformed.assertStatus(404)
  })

  test('a winner whose card check fails before release day is replaced by the next alternate', async ({
    client,
    assert,
  }) => {
    const draw = await recordedDraw(657413, { totalStock: 1 })
    for (let index = 0; index < 3; index++) {
      const result438 = await enterDraw(client, draw.product, index)
      result438.response.assertStatus(201)
    }
    await placeHolds()
    draw.afterRound()
    const report = await drawRunner.run(
      draw.product.id,
      { label: 'test' },
      { beacon: RECORDED_ROUNDS[657413] }
    )
    const [winner] = report.winners
    const [nextUp, last] = report.alternates
    const winnerEntry = await db.from('draw_entries').where('public_id', winner).first()
    // The winner's card check fails (as the hold worker records a declined check).
    await orderSettlement.cancel(winnerEntry.order_id, { reason: 'hold_declined:card_declined' })
    await orderPaymentState.holdDeclined(winnerEntry.order_id, 'card_declined')

    await drawRunner.sweep()
    const promotedEntry = await db.from('draw_entries').where('public_id', nextUp).first()
    const promoted = await Order.findOrFail(promotedEntry.order_id)
    assert.equal(promoted.status, 'pending')
    assert.equal(promoted.holdStatus, 'queued')
    assert.equal(promoted.holdRound, 2)
    const mail = await EmailMessage.query()
      .where('order_id', promoted.id)
      .where('template', 'draw_promoted')
    assert.lengthOf(mail, 1)
    await placeHolds()
    await promoted.refresh()
    assert.equal(promoted.holdStatus, 'placed')
    const lastEntry = await db.from('draw_entries').where('public_id', last).first()
    const result468 = await Order.findOrFail(lastEntry.order_id)
    assert.equal(result468.status, 'cancelled')
    await draw.product.refresh()
    assert.equal(draw.product.stockTaken, 1)
    // The published result is the rule's: promotions do not rewrite it.
    const proof = await proofOf(client, draw.product)
    assert.deepEqual(proof.winners, [winner])
    const result474 = await verifyDraw(proof)
    assert.isTrue(result474.ok)
    await drawRunner.sweep()
    assert.lengthOf(
      await EmailMessage.query().where('order_id', promoted.id).where('template', 'draw_promoted'),
      1
    )
  })

  test('winners are counted from the committed slots, even when the counter says sold out', async ({
    client,
    assert,
  }) => {
    const draw = await recordedDraw(657413, { totalStock: 2 })
    for (let index = 0; index < 3; index++) {
      const result488 = await enterDraw(client, draw.product, index)
      result488.response.assertStatus(201)
    }
    await placeHolds()
    // The counter is full and the product unavailable: neither decides the draw's winners.
    await db.from('products').where('id', draw.product.id).update({ stock_taken: 2, avail: false })
    draw.afterRound()
    const report = await drawRunner.run(
      draw.product.id,
      { label: 'test' },
      { beacon: RECORDED_ROUNDS[657413] }
    )
    assert.lengthOf(report.winners, 2)
    assert.isTrue(report.settled)
    const result501 = await Order.query().where('product_id', draw.product.id)
    const statuses = result501.map((o) => o.status)
    assert.sameMembers(statuses, ['pending', 'pending', 'cancelled'])
  })

  test('a hold the gateway would not release yet is released by the sweep', async ({
    client,
    assert,
  }) => {
    const { gateway, useGateway } = await import('#payments/services/gateway')
    const { GatewayUnavailableError } = await import('#payments/gateways/payment_gateway')
    const draw = await recordedDraw(657413, { totalStock: 1 })
    for (let index = 0; index < 2; index++) {
      const result513 = await enterDraw(client, draw.product, index)
      result513.response.assertStatus(201)
    }
    await placeHolds()
    draw.afterRound()
    const real = gateway()
    const busy = new Proxy(real, {
      get(target, property, receiver) {
        if (property === 'releaseHold') {
          return async () => {
            throw new GatewayUnavailableError('rate_limit', 'Too many requests: retry')
          }
        }
        const value = Reflect.get(target, property, receiver)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    useGateway(busy)
    let report
    try {
      report = await drawRunner.run(
        draw.product.id,
        { label: 'test' },
        { beacon: RECORDED_ROUNDS[657413] }
      )
    } finally {
      useGateway(real)
    }
    assert.isFalse(report.settled)
    const loser = await Order.query()
      .where('product_id', draw.product.id)
      .where('status', 'cancelled')
      .firstOrFail()
    assert.equal(loser.holdStatus, 'placed', 'the gateway asked to retry')
    await drawRunner.sweep()
    await loser.refresh()
    assert.equal(loser.holdStatus, 'released')
    const record = await db.from('draws').where('product_id', draw.product.id).first()
    assert.isNotNull(record.settled_at)
  })
})
