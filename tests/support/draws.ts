import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type User from '#accounts/models/user'
import type Product from '#catalog/models/product'
import { clock } from '#core/services/clock'
import { beaconSource } from '#draws/services/beacon_source'
import { RECORDED_ROUNDS, type RecordedRound } from '#database/fixtures/quicknet_rounds'
import { BEACON_DELAY_SECONDS, QUICKNET, roundTime } from '#shared/draw'
import { customerWithCard, productFor, profileFor } from '#tests/helpers'

/** A Luhn-valid card number of its own for each index (the sandbox gives each a fingerprint). */
export function distinctCard(index: number): string {
  const body = `4000123${String(index).padStart(8, '0')}`
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let digit = Number(body[body.length - 1 - i])
    if (i % 2 === 0) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return `${body}${(10 - (sum % 10)) % 10}`
}

/** Test cards with different numbers: one draw entry per card. */
export const DRAW_CARDS = [
  '4242424242424242',
  '5555555555554444',
  '4000056655665556',
  '378282246310005',
]

/** A draw product taking entries now (2 slots unless told otherwise). */
export async function drawProduct(overrides: Record<string, unknown> = {}) {
  return productFor({
    releaseMode: 'draw',
    entryOpensAt: DateTime.now().minus({ hours: 1 }).startOf('second'),
    entryClosesAt: DateTime.now().plus({ hours: 1 }).startOf('second'),
    totalStock: 2,
    stockTaken: 0,
    ...overrides,
  })
}

/**
 * A draw whose committed round is a recorded quicknet round: time is set to when its entries
 * were open (in 2023), entries close 60 s before the round and opened an hour before that. Move
 * on with `afterClose` and `afterRound`.
 */
export async function recordedDraw(
  round: RecordedRound = 657413,
  overrides: Record<string, unknown> = {}
) {
  const closesAt = (roundTime(round) - BEACON_DELAY_SECONDS) * 1000
  const opensAt = closesAt - 3_600_000
  clock.freeze(opensAt + 60_000)
  const product = await drawProduct({
    entryOpensAt: DateTime.fromMillis(opensAt),
    entryClosesAt: DateTime.fromMillis(closesAt),
    releaseAt: DateTime.fromMillis(closesAt + 3 * 86_400_000),
    ...overrides,
  })
  return {
    product,
    round,
    closesAt,
    afterClose: () => clock.freeze(closesAt + 1000),
    afterRound: () => clock.freeze(roundTime(round) * 1000 + 1000),
  }
}

/** A profile's fields with the given card and street (the two things an entry is known by). */
export function drawProfileData(index: number, card: string, street: string) {
  const address = {
    address1: street,
    address2: '',
    firstName: 'Draw',
    lastName: `Entrant${index}`,
    city: 'Springfield',
    zip: '12345',
    state: 'IL',
    country: 'US',
  }
  return {
    shipping: address,
    billing: address,
    card: {
      name: 'Draw Entrant',
      number: card,
      code: '123',
      month: '12',
      // Card expiry is checked against the calendar, not the product's clock.
      year: String((new Date().getFullYear() + 2) % 100),
    },
  }
}

/**
 * A customer with a card on file of their own (`card`, or one made for `index`) and a profile
 * at their own street (or `street`), entering the draw through the checkout.
 */
export async function enterDraw(
  client: any,
  product: Product,
  index: number,
  options: { card?: string; street?: string; profileCard?: string } = {}
) {
  const customer = await customerWithCard(options.card ?? distinctCard(index))
  const profile = await profileFor(
    customer.user,
    drawProfileData(
      index,
      options.profileCard ?? DRAW_CARDS[index % DRAW_CARDS.length],
      options.street ?? `${index + 1} Draw Street`
    )
  )
  const response = await client
    .post('/api/checkout/withprofile')
    .bearerToken(customer.token)
    .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
  return { ...customer, profile, response }
}

/**
 * A drand relay on this machine serving recorded quicknet rounds (and nothing else), the way
 * drand's HTTP relays do: `/{chain}/info` and `/{chain}/public/{round}`.
 */
export async function startRecordedRelay(rounds = RECORDED_ROUNDS as Record<number, object>) {
  const requests: string[] = []
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    requests.push(path)
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (path === `/${QUICKNET.chainHash}/info`) {
      return send(200, {
        public_key: QUICKNET.publicKey,
        period: QUICKNET.period,
        genesis_time: QUICKNET.genesisTime,
        hash: QUICKNET.chainHash,
        groupHash: QUICKNET.groupHash,
        schemeID: QUICKNET.schemeID,
        metadata: { beaconID: QUICKNET.beaconID },
      })
    }
    const match = new RegExp(`^/${QUICKNET.chainHash}/public/(\\d+)$`).exec(path)
    const round = match ? rounds[Number(match[1])] : undefined
    if (round) {
      const body: Record<string, unknown> = { ...round }
      delete body.chainHash
      return send(200, body)
    }
    send(404, { error: 'no such round here' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  beaconSource.useRelays([url])
  return {
    url,
    requests,
    async close() {
      beaconSource.useRelays(null)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Deletes a draw product with its entries, orders and what they wrote (tests outside a transaction). */
export async function removeDraw(product: Product, users: User[]) {
  const orderRows = await db.from('orders').where('product_id', product.id).select('id')
  const orderIds = orderRows.map((row) => row.id)
  await db.from('draw_entries').where('product_id', product.id).delete()
  await db.from('draw_blocks').where('product_id', product.id).delete()
  await db.from('draws').where('product_id', product.id).delete()
  await db.from('email_messages').whereIn('order_id', orderIds).delete()
  await db.from('order_events').whereIn('order_id', orderIds).delete()
  await db.from('payment_ledger').whereIn('order_id', orderIds).delete()
  await db.from('orders').where('product_id', product.id).delete()
  await db
    .from('audit_logs')
    .where('subject_type', 'product')
    .where('subject_id', String(product.id))
    .delete()
  await db.from('products').where('id', product.id).delete()
  await db
    .from('profiles')
    .whereIn(
      'user_id',
      users.map((user) => user.id)
    )
    .delete()
}
