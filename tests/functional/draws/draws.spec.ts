import { createHash, createHmac } from 'node:crypto'
import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import limiter from '@adonisjs/limiter/services/main'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import type User from '#accounts/models/user'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import EmailMessage from '#notifications/models/email_message'
import { DRAW_CARDS, drawProduct, drawProfileData } from '#tests/support/draws'
import { drawWinners } from '#shared/draw'
import { adminWithToken, customerWithCard, placeHolds, profileFor } from '#tests/helpers'

/** A profile with its own card and street, unless told to share them. */
async function profileOf(user: User, index: number, overrides: { card?: string; street?: string }) {
  return profileFor(
    user,
    drawProfileData(
      index,
      overrides.card ?? DRAW_CARDS[index % DRAW_CARDS.length],
      overrides.street ?? `${index + 1} Draw Street`
    )
  )
}

async function enter(client: any, product: Product, index: number, overrides = {}) {
  const customer = await customerWithCard()
  const profile = await profileOf(customer.user, index, overrides)
  const response = await client
    .post('/api/checkout/withprofile')
    .bearerToken(customer.token)
    .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
  return { ...customer, profile, response }
}

/** How many orders a query finds. */
async function countOf(query: { exec(): Promise<unknown[]> }) {
  const rows = await query.exec()
  return rows.length
}

async function closeEntries(product: Product) {
  await product.merge({ entryClosesAt: DateTime.now().minus({ seconds: 1 }) }).save()
}

test.group('Draw releases', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => limiter.clear())

  test('a draw product shows its mode, entry window and commitment, never its seed', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct()
    const response = await client.get(`/api/products/${product.id}`)
    response.assertStatus(200)
    assert.equal(response.body().mode, 'draw')
    assert.equal(response.body().entryClosesAt, product.entryClosesAt!.toISO())
    assert.equal(
      response.body().draw.commitment,
      createHash('sha256').update(product.drawSeed!).digest('hex')
    )
    assert.isNull(response.body().draw.seed)
    assert.notInclude(JSON.stringify(response.body()), product.drawSeed!)
    const list = await client.get('/api/products')
    const listed = list.body().find((item: any) => item.productId === product.id)
    assert.equal(listed.mode, 'draw')
    const plain = list.body().find((item: any) => item.productId !== product.id)
    assert.equal(plain?.mode ?? 'first-come', 'first-come')
  })

  test('Checkout on a draw enters it: order Entered, $1.00 check placed, entry id shown', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct()
    const { token, response } = await enter(client, product, 0)
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
    const stored = await Order.findByOrFail('publicId', order.orderId)
    const email = await EmailMessage.query()
      .where('template', 'draw_entered')
      .where('order_id', stored.id)
      .firstOrFail()
    assert.include(email.subject, 'You are in the draw')
  })

  test('one entry per person: by account, by card and by address, each counted', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct({ totalStock: 10 })
    const first = await enter(client, product, 0)
    first.response.assertStatus(201)

    const otherProfile = await profileOf(first.user, 1, {})
    const sameAccount = await client
      .post('/api/checkout/withprofile')
      .bearerToken(first.token)
      .json({ productId: product.id, style: 'Black', size: '9', profileId: otherProfile.publicId })
    sameAccount.assertStatus(409)
    assert.equal(sameAccount.body().code, 'duplicate')

    const sameCard = await enter(client, product, 2, { card: DRAW_CARDS[0] })
    sameCard.response.assertStatus(409)
    assert.equal(sameCard.response.body().code, 'duplicate')
    assert.include(sameCard.response.body().error, 'card')

    const sameAddress = await enter(client, product, 3, { street: '1 draw street.' })
    sameAddress.response.assertStatus(409)
    assert.include(sameAddress.response.body().error, 'address')

    const { token } = await adminWithToken()
    const view = await client.get(`/api/admin/draws/${product.id}`).bearerToken(token)
    view.assertStatus(200)
    assert.deepEqual(view.body().blocked, { account: 1, card: 1, address: 1 })
    assert.equal(view.body().entryCount, 1)
    assert.equal(await countOf(Order.query().where('product_id', product.id)), 1)
  })

  test('entries are taken only inside the window', async ({ client, assert }) => {
    const early = await drawProduct({ entryOpensAt: DateTime.now().plus({ minutes: 5 }) })
    const before = await enter(client, early, 0)
    before.response.assertStatus(409)
    assert.equal(before.response.body().code, 'draw_not_open')

    const late = await drawProduct({ entryClosesAt: DateTime.now().minus({ seconds: 1 }) })
    const after = await enter(client, late, 1)
    after.response.assertStatus(409)
    assert.equal(after.response.body().code, 'draw_closed')
    assert.equal(await countOf(Order.query().whereIn('product_id', [early.id, late.id])), 0)
  })

  test('the draw picks exactly S winners, closes the others uncharged, and runs once', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct({ totalStock: 2 })
    const entrants = []
    for (let index = 0; index < 4; index++) entrants.push(await enter(client, product, index))
    for (const entrant of entrants) entrant.response.assertStatus(201)
    await placeHolds()
    const { token } = await adminWithToken()

    const tooSoon = await client
      .post(`/api/admin/draws/${product.id}/run`)
      .bearerToken(token)
      .json({})
    tooSoon.assertStatus(409)
    assert.equal(tooSoon.body().code, 'draw_not_closed')

    await closeEntries(product)
    const run = await client.post(`/api/admin/draws/${product.id}/run`).bearerToken(token).json({})
    run.assertStatus(200)
    assert.isTrue(run.body().drawnNow)
    assert.lengthOf(run.body().winners, 2)
    assert.equal(run.body().entries, 4)

    const orders = await Order.query().where('product_id', product.id)
    const winners = orders.filter((order) => order.status === 'pending')
    const losers = orders.filter((order) => order.status === 'cancelled')
    assert.lengthOf(winners, 2)
    assert.lengthOf(losers, 2)
    for (const order of winners) assert.equal(order.holdStatus, 'placed')
    for (const order of losers) {
      assert.equal(order.holdStatus, 'released')
      assert.equal(order.feeStatus, 'none')
      assert.equal(order.failReason, 'draw_not_selected')
    }
    await product.refresh()
    assert.equal(product.stockTaken, 2)
    const mails = await EmailMessage.query().whereIn(
      'order_id',
      orders.map((order) => order.id)
    )
    assert.equal(mails.filter((mail) => mail.template === 'draw_won').length, 2)
    assert.equal(mails.filter((mail) => mail.template === 'draw_not_selected').length, 2)

    const again = await client
      .post(`/api/admin/draws/${product.id}/run`)
      .bearerToken(token)
      .json({})
    again.assertStatus(200)
    assert.isFalse(again.body().drawnNow)
    assert.equal(again.body().moved, 0)
    assert.deepEqual(again.body().winners, run.body().winners)
    const audit = await db
      .from('audit_logs')
      .where('subject_type', 'product')
      .where('subject_id', String(product.id))
      .orderBy('id', 'asc')
      .select('action')
    assert.deepEqual(
      audit.map((row) => row.action),
      ['draw.run', 'draw.run_again']
    )
    const mailsAfter = await EmailMessage.query().whereIn(
      'order_id',
      orders.map((order) => order.id)
    )
    assert.equal(mailsAfter.length, mails.length, 'no second e-mail')
  })

  test('the proof publishes seed and entry ids, and recomputes to the same winners', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct({ totalStock: 2 })
    for (let index = 0; index < 4; index++) {
      const { response } = await enter(client, product, index)
      response.assertStatus(201)
    }
    const hidden = await client.get(`/api/products/${product.id}/draw`)
    assert.isNull(hidden.body().seed)
    assert.deepEqual(hidden.body().entries, [])
    assert.equal(hidden.body().entryCount, 4)

    await closeEntries(product)
    const { token } = await adminWithToken()
    const run = await client.post(`/api/admin/draws/${product.id}/run`).bearerToken(token).json({})
    const published = await client.get(`/api/products/${product.id}/draw`)
    const proof = published.body()
    assert.equal(createHash('sha256').update(proof.seed).digest('hex'), proof.commitment)
    assert.lengthOf(proof.entries, 4)
    assert.notInclude(JSON.stringify(proof), '@')
    const recomputed = await drawWinners(proof.seed, proof.entries, proof.slots, (key, text) =>
      createHmac('sha256', key).update(text).digest('hex')
    )
    assert.deepEqual(recomputed, proof.winners)
    assert.deepEqual(proof.winners, run.body().winners)
    const shown = await client.get(`/api/products/${product.id}`)
    assert.equal(shown.body().draw.seed, proof.seed)
    const view = await client.get(`/api/admin/draws/${product.id}`).bearerToken(token)
    assert.deepInclude(view.body().verification, { commitmentMatches: true, winnersMatch: true })
  })

  test('fewer entries than slots: every entry wins', async ({ client, assert }) => {
    const product = await drawProduct({ totalStock: 5 })
    for (let index = 0; index < 3; index++) {
      const { response } = await enter(client, product, index)
      response.assertStatus(201)
    }
    await closeEntries(product)
    const { token } = await adminWithToken()
    const run = await client.post(`/api/admin/draws/${product.id}/run`).bearerToken(token).json({})
    assert.lengthOf(run.body().winners, 3)
    assert.equal(
      await countOf(Order.query().where('product_id', product.id).where('status', 'pending')),
      3
    )
  })
  test('the console sets a draw up: its window is required, and fixed once drawn', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const base = {
      productTitle: 'Console Draw',
      price: 20,
      totalStock: 3,
      sizeType: 'OS',
      releaseAt: DateTime.now().plus({ days: 3 }).toISO(),
      releaseMode: 'draw',
    }
    const missing = await client.post('/api/admin/products').bearerToken(token).json(base)
    missing.assertStatus(422)
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json({
        ...base,
        entryOpensAt: DateTime.now().minus({ hours: 1 }).toISO(),
        entryClosesAt: DateTime.now().minus({ minutes: 1 }).toISO(),
      })
    created.assertStatus(201)
    assert.equal(created.body().mode, 'draw')
    assert.match(created.body().draw.commitment, /^[0-9a-f]{64}$/)
    assert.isNull(created.body().draw.seed)
    const id = created.body().id

    const run = await client.post(`/api/admin/draws/${id}/run`).bearerToken(token).json({})
    run.assertStatus(200)
    const moved = await client
      .put(`/api/admin/products/${id}`)
      .bearerToken(token)
      .json({ entryClosesAt: DateTime.now().plus({ days: 1 }).toISO() })
    moved.assertStatus(422)
    const renamed = await client
      .put(`/api/admin/products/${id}`)
      .bearerToken(token)
      .json({ productTitle: 'Console Draw, renamed', releaseMode: 'draw' })
    renamed.assertStatus(200)
    assert.equal(renamed.body().productTitle, 'Console Draw, renamed')
  })
})
