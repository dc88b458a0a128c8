import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type Product from '#catalog/models/product'
import { clock } from '#core/services/clock'
import { AlertCheck } from '#alerts/services/alert_check'
import { beaconUnavailable } from '#alerts/rules/beacon_unavailable'
import { drawRunner } from '#draws/services/draw_runner'
import { roundTime } from '#shared/draw'
import { enterDraw, distinctCard, recordedDraw, startRecordedRelay } from '#tests/support/draws'
import {
  adminWithToken,
  customerWithCard,
  freshStaffToken,
  placeHolds,
  productFor,
} from '#tests/helpers'

const ROUND = 657413
const DUE_AT = roundTime(ROUND) * 1000

/** The open incidents of the rule, through the console's API. */
async function openIncidents(client: any, token: string) {
  await new AlertCheck([beaconUnavailable]).run()
  const response = await client
    .get('/api/admin/incidents')
    .qs({ filter: JSON.stringify({ status: 'open' }) })
    .bearerToken(token)
  response.assertStatus(200)
  return (response.body() as any[]).filter((row) => row.rule === 'beacon_unavailable')
}

/** A first-come drop whose line is ordered from the recorded round (it closes a minute before). */
async function recordedRoom() {
  clock.freeze(DUE_AT - 5 * 60_000)
  const product = await productFor({
    totalStock: 100,
    stockTaken: 0,
    releaseAt: DateTime.fromMillis(DUE_AT + 3 * 86_400_000),
    queueOpensAt: DateTime.fromMillis(DUE_AT),
    queueMinutes: 10,
    queueRatePerMinute: 3,
  })
  const customer = await customerWithCard(distinctCard(700), {
    billingAddress: {
      line1: '7 Beacon Street',
      line2: null,
      city: 'Springfield',
      postal_code: '12345',
      state: 'IL',
      country: 'US',
    },
  } as any)
  return { product, customer }
}

const lineStatus = (client: any, product: Product, token: string) =>
  client.get(`/api/products/${product.id}/queue`).bearerToken(token)

test.group('When the beacon cannot be reached', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a draw says it is delayed and why; the alert opens after 5 minutes and resolves when the round is fetched', async ({
    client,
    assert,
  }) => {
    const draw = await recordedDraw(ROUND)
    const entrant = await enterDraw(client, draw.product, 0)
    entrant.response.assertStatus(201)
    await placeHolds()
    // The product clock jumps by hours here: each look at the console is a fresh sign-in.

    const committed = await client.get(`/api/products/${draw.product.id}/draw`)
    committed.assertStatus(200)
    assert.include(committed.body().beaconRule, `drand quicknet round ${ROUND}`)
    assert.include(committed.body().beaconRule, 'no other round')
    assert.isNull(committed.body().delay)

    // The round is out, no relay gives it (DRAND_URLS=off): the scheduled draw notes why.
    draw.afterRound()
    await drawRunner.sweep()
    const delayed = await client.get(`/api/products/${draw.product.id}/draw`)
    assert.equal(delayed.body().status, 'closed')
    const delay = delayed.body().delay
    assert.equal(delay.reason, 'randomness_late')
    assert.equal(delay.dueAt, new Date(DUE_AT).toISOString())
    assert.include(delay.message, 'waiting for the public random number it was promised to use')
    assert.include(delay.message, `due at ${new Date(DUE_AT).toISOString().slice(11, 16)} UTC`)
    assert.include(delay.message, 'nothing changes about your entry')
    assert.notMatch(delay.message, /drand|quicknet|beacon|round/i)
    assert.lengthOf(
      await openIncidents(client, await freshStaffToken()),
      0,
      'not an incident the moment it is due'
    )

    clock.freeze(DUE_AT + 5 * 60_000 - 1000)
    await drawRunner.sweep()
    assert.lengthOf(await openIncidents(client, await freshStaffToken()), 0, 'not before 5 minutes')

    clock.freeze(DUE_AT + 5 * 60_000)
    const [incident] = await openIncidents(client, await freshStaffToken())
    assert.equal(incident.subject, `draw:${draw.product.id}`)
    assert.include(incident.title, `round ${ROUND} unavailable for 5 minutes`)
    assert.include(incident.detail, `The draw of product ${draw.product.id}`)
    assert.include(
      incident.detail,
      `quicknet round ${ROUND}, due at ${new Date(DUE_AT).toISOString()}`
    )
    assert.include(incident.detail, 'DRAND_URLS')
    assert.include(incident.detail, `dropslot draw:run --product ${draw.product.id} --beacon FILE`)

    const view = await client
      .get(`/api/admin/draws/${draw.product.id}`)
      .bearerToken(await freshStaffToken())
    assert.containsSubset(view.body().beaconWait, {
      round: ROUND,
      dueAt: new Date(DUE_AT).toISOString(),
      lateMinutes: 5,
    })
    assert.include(view.body().beaconWait.lastError, 'DRAND_URLS')

    // A relay answers: the same committed round, and the incident resolves.
    const relay = await startRecordedRelay()
    try {
      await drawRunner.sweep()
    } finally {
      await relay.close()
    }
    const drawn = await client.get(`/api/products/${draw.product.id}/draw`)
    assert.equal(drawn.body().status, 'drawn')
    assert.equal(drawn.body().beacon.round, ROUND)
    assert.isNull(drawn.body().delay)
    assert.lengthOf(await openIncidents(client, await freshStaffToken()), 0)
  })

  test("a waiting room's line says places are delayed and why; the alert follows the product clock", async ({
    client,
    assert,
  }) => {
    const { product, customer } = await recordedRoom()
    const joined = await client
      .post(`/api/products/${product.id}/queue`)
      .bearerToken(customer.token)
    joined.assertStatus(200)
    assert.equal(joined.body().state, 'waiting')
    const { token } = await adminWithToken()

    clock.freeze(DUE_AT + 1000)
    const drawing = await lineStatus(client, product, customer.token)
    drawing.assertStatus(200)
    assert.equal(drawing.body().state, 'drawing')
    const delay = drawing.body().delay
    assert.equal(delay.dueAt, new Date(DUE_AT).toISOString())
    assert.include(delay.message, 'waiting for the public random number the line was promised')
    assert.include(delay.message, 'nothing changes about your place in line')
    assert.notMatch(delay.message, /drand|quicknet|beacon|round/i)
    const proof = await client.get(`/api/products/${product.id}/queue/proof`)
    assert.include(proof.body().beaconRule, `drand quicknet round ${ROUND}`)

    clock.freeze(DUE_AT + 4 * 60_000)
    assert.lengthOf(await openIncidents(client, token), 0, 'not before 5 minutes')
    clock.freeze(DUE_AT + 6 * 60_000)
    const [incident] = await openIncidents(client, token)
    assert.equal(incident.subject, `line:${product.id}`)
    assert.include(incident.detail, `The waiting room of product ${product.id}`)
    assert.include(incident.detail, 'DRAND_URLS')
    const figures = await client.get(`/api/admin/waiting-rooms/${product.id}`).bearerToken(token)
    assert.containsSubset(figures.body().beaconWait, { round: ROUND, lateMinutes: 6 })

    const relay = await startRecordedRelay()
    try {
      const ordered = await lineStatus(client, product, customer.token)
      assert.oneOf(ordered.body().state, ['in_line', 'admitted'])
      assert.notProperty(ordered.body(), 'delay')
    } finally {
      await relay.close()
    }
    assert.lengthOf(await openIncidents(client, token), 0)
  })
})
