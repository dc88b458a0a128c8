import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import EmailMessage from '#notifications/models/email_message'
import { clock } from '#core/services/clock'
import { holdWorker } from '#payments/services/hold_worker'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import { drawResult, merkleRoot, verifyDraw, type DrawProof } from '#shared/draw'
import { distinctCard, enterDraw, recordedDraw, startRecordedRelay } from '#tests/support/draws'
import { adminWithToken, envelope, placeHolds, TEST_CARDS } from '#tests/helpers'

const HOUR = 3_600_000

async function proofOf(client: any, product: Product): Promise<DrawProof> {
  const response = await client.get(`/api/products/${product.id}/draw`)
  response.assertStatus(200)
  return response.body()
}

/** The customer replaces the card on file from the account page (genToken, then billing/set). */
async function replaceCard(client: any, token: string, number: string) {
  const generated = await client
    .post('/api/user/billing/genToken')
    .bearerToken(token)
    .json({
      encrypted: envelope({
        name: 'Draw Entrant',
        number,
        exp_month: 12,
        exp_year: DateTime.now().year + 2,
        cvc: '123',
        address_zip: '12345',
      }),
    })
  generated.assertStatus(200)
  const saved = await client
    .post('/api/user/billing/set')
    .bearerToken(token)
    .json({
      billingAddress: {
        address1: '1 Main St',
        city: 'Springfield',
        zip: '12345',
        state: 'IL',
        country: 'US',
      },
      token: generated.body().id,
    })
  saved.assertStatus(200)
}

/** The failed checks of a verification, with what each says. */
const failures = (checks: { name: string; status: string; detail: string }[]) =>
  checks.filter((check) => check.status === 'fail')

test.group('Draws: the eligible list is frozen before the randomness exists', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the frozen list is the entries whose card check stands at the close; a proof with the top winner removed fails', async ({
    client,
    assert,
  }) => {
    const draw = await recordedDraw(657413, { totalStock: 2 })
    const entrants = []
    for (let index = 0; index < 5; index++) {
      entrants.push(
        await enterDraw(client, draw.product, index, {
          card: index === 4 ? TEST_CARDS.declinesCharges : distinctCard(index),
        })
      )
    }
    for (const entrant of entrants) entrant.response.assertStatus(201)
    // The last entrant's card check is declined before the close: that entry is not frozen.
    await placeHolds()
    draw.afterClose()
    const closed = await proofOf(client, draw.product)
    assert.equal(closed.status, 'closed')
    assert.lengthOf(closed.entries, 4)
    assert.equal(closed.entriesRoot, merkleRoot(closed.entries))
    const declined = await Order.query()
      .where('product_id', draw.product.id)
      .where('hold_status', 'declined')
      .firstOrFail()
    const declinedEntry = await db.from('draw_entries').where('order_id', declined.id).first()
    assert.notInclude(closed.entries, declinedEntry.public_id)
    const notFrozen = await client.get(
      `/api/products/${draw.product.id}/draw/entries/${declinedEntry.public_id}`
    )
    notFrozen.assertStatus(404)
    assert.include(notFrozen.body().error, 'card check')

    draw.afterRound()
    const relay = await startRecordedRelay()
    try {
      const { token } = await adminWithToken()
      const run = await client
        .post(`/api/admin/draws/${draw.product.id}/run`)
        .bearerToken(token)
        .json({})
      run.assertStatus(200)
    } finally {
      await relay.close()
    }
    const proof = await proofOf(client, draw.product)
    assert.deepEqual(proof.entriesRoot, closed.entriesRoot, 'the root published at the close')
    assert.sameMembers([...proof.winners, ...proof.alternates], closed.entries)
    const verified = await verifyDraw(proof)
    assert.isTrue(verified.ok)

    // The published proof with its top winner taken out, the rest ranked again without it: the
    // shape a draw would have if an entry were dropped once the randomness was known.
    const [top] = proof.winners
    const without = drawResult(
      proof.seed!,
      proof.beacon!.randomness!,
      proof.entries.filter((entryId) => entryId !== top),
      proof.slots
    )
    const tampered = await verifyDraw({ ...proof, ...without })
    assert.isFalse(tampered.ok)
    const [failed] = failures(tampered.checks)
    assert.equal(failed.name, 'winners')
    assert.include(failed.detail, top)
    assert.include(failed.detail, 'missing from the ranking')

    // The same done in the database after the draw: the published proof no longer verifies.
    await db
      .from('draw_entries')
      .where('public_id', top)
      .update({ result: 'skipped', rank: null, won: false })
    const edited = await verifyDraw(await proofOf(client, draw.product))
    assert.isFalse(edited.ok)
  })

  test('a winner whose card check lapses after the close stays ranked and is replaced by the next alternate, with the reason published', async ({
    client,
    assert,
  }) => {
    const draw = await recordedDraw(657413, {
      totalStock: 1,
      releaseAt: DateTime.now().plus({ days: 30 }),
    })
    const entrants = []
    for (let index = 0; index < 4; index++) {
      const entrant = await enterDraw(client, draw.product, index)
      entrant.response.assertStatus(201)
      entrants.push(entrant)
    }
    await placeHolds()
    draw.afterClose()
    const closed = await proofOf(client, draw.product)
    assert.lengthOf(closed.entries, 4, 'every card check stands at the close')

    // Who will win is known only to whoever holds the seed once the round is out; the test reads
    // it to make that very entry's card check lapse between the close and the draw.
    const record = await db.from('draws').where('product_id', draw.product.id).first()
    const expected = drawResult(record.seed, RECORDED_ROUNDS[657413].randomness, closed.entries, 1)
    const [winner] = expected.winners
    const winnerEntry = await db.from('draw_entries').where('public_id', winner).first()
    const lapsing = entrants.find((entrant) => entrant.user.id === winnerEntry.user_id)!
    await replaceCard(client, lapsing.token, TEST_CARDS.declinesCharges)
    clock.travel(145 * HOUR)
    await holdWorker.runOnce()
    const lapsed = await Order.findOrFail(winnerEntry.order_id)
    assert.equal(lapsed.status, 'cancelled')
    assert.equal(lapsed.failReason, 'hold_declined:generic_decline')

    const relay = await startRecordedRelay()
    let run
    try {
      const { token } = await adminWithToken()
      run = await client.post(`/api/admin/draws/${draw.product.id}/run`).bearerToken(token).json({})
      run.assertStatus(200)
    } finally {
      await relay.close()
    }
    // Still in the ranking, at its place: the draw's result is the rule's over the frozen list.
    assert.deepEqual(run.body().winners, [winner])
    assert.deepEqual(run.body().alternates, expected.alternates)
    assert.equal(run.body().promoted, 1)

    const proof = await proofOf(client, draw.product)
    assert.deepEqual(proof.winners, [winner])
    assert.deepEqual(proof.replacements, [
      { entryId: winner, reason: 'card_check_declined', replacedBy: expected.alternates[0] },
    ])
    const verification = await verifyDraw(proof)
    assert.isTrue(verification.ok, JSON.stringify(verification.checks))
    const result = verification.checks.find((check) => check.name === 'winners')!
    assert.include(result.detail, 'card check declined')

    const nextEntry = await db
      .from('draw_entries')
      .where('public_id', expected.alternates[0])
      .first()
    const promoted = await Order.findOrFail(nextEntry.order_id)
    assert.equal(promoted.status, 'pending')
    const mail = await EmailMessage.query()
      .where('order_id', promoted.id)
      .where('template', 'draw_promoted')
    assert.lengthOf(mail, 1)

    // A replacement out of turn, or a lapsed winner left without one, does not verify.
    const outOfTurn = await verifyDraw({
      ...proof,
      replacements: [{ ...proof.replacements[0], replacedBy: expected.alternates[1] }],
    })
    assert.deepEqual(
      failures(outOfTurn.checks).map((check) => check.name),
      ['winners']
    )
    const unreplaced = await verifyDraw({
      ...proof,
      replacements: [{ ...proof.replacements[0], replacedBy: null }],
    })
    assert.isFalse(unreplaced.ok)
  })
})
