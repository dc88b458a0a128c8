import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import type { DriverSession } from '#core/services/driver_session'
import { productQueries } from '#catalog/services/product_queries'
import { cardOnFileFingerprint } from '#payments/services/card_on_file'
import { addressKey, cardKey } from '#draws/services/draw_keys'
import { timeOf } from '#draws/services/draw_records'
import { hasRoom, roomProduct, waitingLine, type LineRow } from '#draws/services/waiting_line'
import { waitingRoomPasses, type PassStatus } from '#draws/services/waiting_room_passes'
import { QUICKNET, compareIds, type Beacon, type LineProof } from '#shared/draw'

const DUPLICATE_PLACE = {
  card: 'This card is already in the line for this drop.',
  address: 'This billing address is already in the line for this drop.',
}

export type LineStatus =
  | {
      state: 'waiting'
      opensAt: string
      secondsLeft: number
      memberId: string
      round: number | null
    }
  | { state: 'drawing'; memberId: string; round: number | null; reason: string | null }
  | {
      state: 'in_line'
      memberId: string
      place: number
      ahead: number
      letThroughPerMinute: number
    }
  | PassStatus

/**
 * The waiting room of a first-come drop. Joining needs a card on file and takes one place per
 * account, per card (the gateway's fingerprint of the card on file) and per billing address (its
 * postal normal form), by unique indexes. The line is committed when it forms (the SHA-256 of a
 * secret seed and a quicknet round after its close), frozen a minute before the sale opens, and
 * ordered from that round's randomness by the draw's rule (shared/draw.ts), so the places are
 * published and anyone can check theirs; arriving earlier gives no advantage (`waiting_line.ts`).
 * Those who join after the close come after the line, in the order they came. The line lets
 * `queue_rate_per_minute` customers through per minute from the moment it is ordered, each with
 * a signed pass for one checkout of theirs, spent by that checkout (`waiting_room_passes.ts`).
 */
export class WaitingRoom {
  /** Gives the line its places once its round is out (see `WaitingLine.order`). */
  async order(productId: number, given?: Beacon): Promise<LineRow | null> {
    return waitingLine.order(productId, given)
  }

  /**
   * Joins the line: a card on file and a billing address are needed, and each counts once per
   * drop. Whether the customer is a member of the line or came late is decided by the statement
   * that writes the place, against the line's close.
   */
  async join(
    productId: number,
    user: {
      id: number
      billingAddress: {
        line1: string
        line2: string | null
        postal_code: string
        country: string
      } | null
    }
  ): Promise<LineStatus> {
    const product = await roomProduct(productId)
    const formsAt = product.queueOpensAt!.minus({ minutes: product.queueMinutes! })
    if (clock.nowMs() < formsAt.toMillis()) {
      throw AppError.conflict(
        `The line for this drop forms at ${formsAt.toISO()}.`,
        'queue_not_open'
      )
    }
    const fingerprint = await cardOnFileFingerprint(user.id)
    if (!fingerprint) {
      throw new AppError('Add a card to your account to join the line.', {
        status: 402,
        code: 'card_required',
      })
    }
    if (!user.billingAddress?.line1) {
      throw AppError.conflict(
        'Add your billing address to your account to join the line.',
        'billing_address_required'
      )
    }
    const line = await waitingLine.commit(product)
    if (!line) throw AppError.conflict('The line for this drop is not open.', 'queue_not_open')
    const address = addressKey({
      address1: user.billingAddress.line1,
      address2: user.billingAddress.line2,
      zip: user.billingAddress.postal_code,
      country: user.billingAddress.country,
    })
    const now = sqlTime()
    const shared = db.connection().dialect.name === 'mysql' ? ' LOCK IN SHARE MODE' : ''
    try {
      await db.rawQuery(
        `INSERT INTO queue_places (product_id, user_id, public_id, card_key, address_key, joined_at, late)
         SELECT l.product_id, ?, ?, ?, ?, ?,
           CASE WHEN l.closed_at IS NULL AND ? < l.closes_at THEN 0 ELSE 1 END
         FROM queue_lines l WHERE l.product_id = ?${shared}`,
        [user.id, randomUUID(), cardKey(fingerprint), address, now, now, product.id]
      )
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      // The database's own words (the query builder puts the statement before them).
      const text = String((error as { message?: string }).message ?? '')
        .split(' - ')
        .pop()!
      const mine = await db
        .from('queue_places')
        .where('product_id', product.id)
        .where('user_id', user.id)
        .first()
      if (!mine) {
        if (/one_per_card|card_key/.test(text))
          throw AppError.conflict(DUPLICATE_PLACE.card, 'duplicate')
        throw AppError.conflict(DUPLICATE_PLACE.address, 'duplicate')
      }
    }
    return this.status(productId, user.id)
  }

  async status(productId: number, userId: number): Promise<LineStatus> {
    const product = await roomProduct(productId)
    const mine = await db
      .from('queue_places')
      .where('product_id', product.id)
      .where('user_id', userId)
      .first()
    if (!mine) {
      throw AppError.notFound(
        'You are not in the line for this drop: join it first.',
        'not_in_line'
      )
    }
    const memberId = String(mine.public_id)
    const opensAt = product.queueOpensAt!
    let line = await waitingLine.find(product.id)
    if (clock.nowMs() < opensAt.toMillis()) {
      return {
        state: 'waiting',
        opensAt: opensAt.toISO()!,
        secondsLeft: Math.ceil((opensAt.toMillis() - clock.nowMs()) / 1000),
        memberId,
        round: line?.beacon_round ? Number(line.beacon_round) : null,
      }
    }
    if (!line?.ordered_at) line = await this.order(product.id)
    if (!line?.ordered_at) {
      return {
        state: 'drawing',
        memberId,
        round: line?.beacon_round ? Number(line.beacon_round) : null,
        reason: line?.beacon_error ?? null,
      }
    }
    const place = await this.placeOf(product.id, userId)
    const rate = Math.max(1, product.queueRatePerMinute ?? 60)
    const orderedAt = timeOf(line.ordered_at)!.getTime()
    const since = Math.max(opensAt.toMillis(), orderedAt)
    const letThrough = Math.floor(((clock.nowMs() - since) / 60_000) * rate) + rate
    if (place > letThrough) {
      return {
        state: 'in_line',
        memberId,
        place,
        ahead: place - letThrough - 1,
        letThroughPerMinute: rate,
      }
    }
    return waitingRoomPasses.issue(product.id, userId, place, memberId)
  }

  /** The customer's place; one who came late after the places were given takes the next one. */
  private async placeOf(productId: number, userId: number): Promise<number> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const row = await db
        .from('queue_places')
        .where('product_id', productId)
        .where('user_id', userId)
        .first()
      if (row?.place) return Number(row.place)
      const last = await db.from('queue_places').where('product_id', productId).max('place as top')
      const next = Number(last[0]?.top ?? 0) + 1
      try {
        await db.from('queue_places').where('id', row.id).whereNull('place').update({ place: next })
      } catch (error) {
        // Someone else took that place at the same moment.
        if (!isUniqueViolation(error)) throw error
      }
    }
    throw AppError.conflict('The line is busy: try again in a moment.', 'queue_busy')
  }

  /** The checkout's gate: this customer's pass for this product, once the sale opens. */
  requirePass(
    product: { id: number; queueOpen: boolean | null },
    userId: number,
    pass: unknown
  ): string | null {
    return waitingRoomPasses.require(product, userId, pass)
  }

  /** Spends the pass inside the checkout's transaction, on its session. */
  async spendPass(
    session: DriverSession,
    input: { productId: number; userId: number; nonce: string }
  ) {
    return waitingRoomPasses.spend(session, input)
  }

  /** Records which order spent a pass (same transaction as the spending). */
  async passSpentBy(session: DriverSession, nonce: string, orderId: number) {
    return waitingRoomPasses.spentBy(session, nonce, orderId)
  }

  /** The line's public proof: commitment, members, beacon, seed and places; nothing personal. */
  async proof(productId: number): Promise<LineProof> {
    const product = await roomProduct(productId)
    let line = await waitingLine.commit(product)
    if (line && !line.closed_at) line = await waitingLine.close(line)
    if (!line || (!line.commitment && Number(line.rule_version) === 2)) {
      return {
        productId: product.id,
        status: 'not_formed',
        commitment: null,
        beacon: null,
        membersRoot: null,
        members: [],
        memberCount: 0,
        seed: null,
        order: [],
      }
    }
    const ordered = Boolean(line.ordered_at) && Number(line.rule_version) === 2
    const members = await db
      .from('queue_places')
      .where('product_id', product.id)
      .where('late', false)
      .select('public_id', 'place')
    const closed = Boolean(line.closed_at)
    const round = line.beacon_round ? Number(line.beacon_round) : null
    return {
      productId: product.id,
      status: ordered ? 'ordered' : closed ? 'closed' : 'forming',
      commitment: line.commitment
        ? {
            productId: product.id,
            seedHash: line.seed_hash,
            closesAt: timeOf(line.closes_at)!.toISOString(),
            chainHash: line.chain_hash!,
            publicKey: line.public_key!,
            round: round!,
            digest: line.commitment,
          }
        : null,
      beacon: round
        ? {
            chainHash: line.chain_hash ?? QUICKNET.chainHash,
            round,
            randomness: ordered ? line.beacon_randomness : null,
            signature: ordered ? line.beacon_signature : null,
          }
        : null,
      membersRoot: line.members_root,
      members: closed ? members.map((row) => String(row.public_id)).sort(compareIds) : [],
      memberCount: closed ? Number(line.member_count ?? members.length) : members.length,
      seed: ordered ? line.seed : null,
      order: ordered
        ? members
            .filter((row) => row.place !== null)
            .sort((a, b) => Number(a.place) - Number(b.place))
            .map((row) => String(row.public_id))
        : [],
    } as LineProof
  }

  /** Lines that formed, closed or are due for their places (the draws job, every minute). */
  async sweep() {
    const now = sqlTime()
    const products = await productQueries
      .query()
      .whereNotNull('queue_opens_at')
      .whereNotNull('queue_minutes')
      .where('queue_opens_at', '>', sqlTime(new Date(clock.nowMs() - 86_400_000)))
      .whereNotIn('id', db.from('queue_lines').whereNotNull('ordered_at').select('product_id'))
      .select('id', 'queue_opens_at', 'queue_minutes')
    for (const row of products) {
      const product = await productQueries.find(row.id)
      if (!product || !hasRoom(product)) continue
      const formsAt = product.queueOpensAt!.toMillis() - product.queueMinutes! * 60_000
      if (clock.nowMs() < formsAt) continue
      try {
        await this.order(product.id)
      } catch {
        // A line that cannot be ordered now is tried again next minute.
      }
    }
    return now
  }

  /** The console's view: how many wait, how many have places, how many the line let through. */
  async figures(productId: number) {
    const product = await roomProduct(productId)
    const line = await waitingLine.find(product.id)
    const [row] = await db
      .from('queue_places')
      .where('product_id', product.id)
      .count('* as total')
      .max('place as placed')
    const total = Number(row?.total ?? 0)
    const rate = Math.max(1, product.queueRatePerMinute ?? 60)
    const orderedAt = timeOf(line?.ordered_at)
    const letThrough = orderedAt
      ? Math.min(
          total,
          Math.floor(
            ((clock.nowMs() - Math.max(orderedAt.getTime(), product.queueOpensAt!.toMillis())) /
              60_000) *
              rate
          ) + rate
        )
      : 0
    const passesSpent = await waitingRoomPasses.spentCount(product.id)
    return {
      productId: product.id,
      opensAt: product.queueOpensAt!.toISO(),
      minutes: product.queueMinutes,
      letThroughPerMinute: rate,
      inLine: total,
      letThrough,
      waiting: total - letThrough,
      passesSpent,
      round: line?.beacon_round ? Number(line.beacon_round) : null,
      ordered: Boolean(orderedAt),
      waitingForBeacon: Boolean(line?.closed_at && !orderedAt && line?.beacon_error),
      beaconError: orderedAt ? null : (line?.beacon_error ?? null),
    }
  }

  /** Lines closed whose round is out and that still wait for it (/health). */
  async waitingForBeacon() {
    const rows = await db
      .from('queue_lines')
      .whereNotNull('closed_at')
      .whereNull('ordered_at')
      .whereNotNull('beacon_error')
      .select('product_id', 'beacon_round', 'beacon_error')
    return rows.map((row) => ({
      productId: Number(row.product_id),
      round: Number(row.beacon_round),
      reason: String(row.beacon_error),
    }))
  }
}

export const waitingRoom = new WaitingRoom()
