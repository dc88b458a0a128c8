import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import type { DriverSession } from '#core/services/driver_session'
import { productQueries } from '#catalog/services/product_queries'
import type { ProductRecord } from '#catalog/services/product_queries'
import { cardOnFileFingerprint } from '#payments/services/card_on_file'
import { beaconSource, BeaconUnavailable } from '#draws/services/beacon_source'
import { addressKey, cardKey } from '#draws/services/draw_keys'
import { timeOf } from '#draws/services/draw_records'
import {
  BEACON_DELAY_SECONDS,
  QUICKNET,
  compareIds,
  makeLineCommitment,
  merkleRoot,
  rankEntries,
  roundTime,
  sha256Hex,
  verifyBeacon,
  type Beacon,
  type LineProof,
} from '#shared/draw'

/** How long a pass lets its holder check out after the line let them through. */
export const PASS_TTL_SECONDS = 10 * 60

export const PASS_REQUIRED =
  'Wait for your turn in line: this drop lets customers through in order.'
export const PASS_SPENT = 'Your pass for this drop was used for a checkout already: it is for one.'

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
  | { state: 'admitted'; memberId: string; place: number; pass: string; expiresAt: string }
  | { state: 'spent' | 'expired'; memberId: string; place: number }

type LineRow = {
  id: number
  product_id: number
  rule_version: number
  seed: string
  seed_hash: string
  closes_at: unknown
  chain_hash: string | null
  public_key: string | null
  beacon_round: number | null
  commitment: string | null
  committed_at: unknown
  closed_at: unknown
  members_root: string | null
  member_count: number | null
  beacon_randomness: string | null
  beacon_signature: string | null
  ordered_at: unknown
  beacon_error: string | null
}

let passKey: Buffer | null = null
function signature(payload: string) {
  passKey ??= createHmac('sha256', env.get('APP_KEY')).update('dropslot:queue-pass').digest()
  return createHmac('sha256', passKey).update(payload).digest('base64url')
}

const hasRoom = (product: Pick<ProductRecord, 'queueMinutes' | 'queueOpensAt'>) =>
  product.queueMinutes !== null &&
  product.queueMinutes !== undefined &&
  Boolean(product.queueOpensAt)

/** When the line closes: a minute before the sale, so its round is out when the sale opens. */
const closesAtOf = (product: ProductRecord) =>
  new Date(product.queueOpensAt!.toMillis() - BEACON_DELAY_SECONDS * 1000)

/**
 * The waiting room of a first-come drop. Joining needs a card on file and takes one place per
 * account, per card (the gateway's fingerprint of the card on file) and per billing address (its
 * postal normal form), by unique indexes. The line is committed when it forms (the SHA-256 of a
 * secret seed and a quicknet round after its close), frozen a minute before the sale opens, and
 * ordered from that round's randomness by the draw's rule (shared/draw.ts), so the places are
 * published and anyone can check theirs; arriving earlier gives no advantage. Those who join
 * after the close come after the line, in the order they came. The line lets
 * `queue_rate_per_minute` customers through per minute from the moment it is ordered, each with
 * a signed pass for one checkout of theirs, spent by that checkout.
 */
export class WaitingRoom {
  private async product(productId: number) {
    const product = Number.isSafeInteger(productId) ? await productQueries.find(productId) : null
    if (!product || !product.avail) {
      throw AppError.notFound('Product not found.', 'product_not_found')
    }
    if (!hasRoom(product)) {
      throw AppError.conflict('This drop has no waiting room.', 'no_waiting_room')
    }
    return product
  }

  private async line(productId: number): Promise<LineRow | null> {
    return (await db.from('queue_lines').where('product_id', productId).first()) ?? null
  }

  /** The line's commitment, made when the line forms; the first one stands. */
  private async commit(product: ProductRecord): Promise<LineRow | null> {
    const existing = await this.line(product.id)
    if (existing?.commitment || existing?.rule_version === 1) return existing
    const formsAt = product.queueOpensAt!.toMillis() - product.queueMinutes! * 60_000
    if (clock.nowMs() < formsAt) return existing
    const seed = existing?.seed ?? randomBytes(32).toString('hex')
    const commitment = makeLineCommitment({
      productId: product.id,
      seed,
      closesAt: closesAtOf(product),
    })
    const values = {
      seed,
      seed_hash: sha256Hex(seed),
      closes_at: sqlTime(new Date(commitment.closesAt)),
      chain_hash: commitment.chainHash,
      public_key: commitment.publicKey,
      beacon_round: commitment.round,
      commitment: commitment.digest,
      committed_at: sqlTime(),
      updated_at: sqlTime(),
    }
    try {
      if (existing) {
        await db.from('queue_lines').where('id', existing.id).whereNull('commitment').update(values)
      } else {
        await db
          .table('queue_lines')
          .insert({ product_id: product.id, rule_version: 2, ...values, created_at: sqlTime() })
      }
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    return this.line(product.id)
  }

  /** Freezes the members at the close (the joins read the line's row under a shared lock). */
  private async close(line: LineRow): Promise<LineRow> {
    const closesAt = timeOf(line.closes_at)
    if (line.closed_at || !closesAt || closesAt.getTime() > clock.nowMs()) return line
    await db.transaction(async (trx) => {
      const claimed = await trx
        .from('queue_lines')
        .where('id', line.id)
        .whereNull('closed_at')
        .update({ closed_at: sqlTime(), updated_at: sqlTime() })
      if (affectedRows(claimed) !== 1) return
      const query = trx
        .from('queue_places')
        .where('product_id', line.product_id)
        .where('late', false)
        .select('public_id')
      if (trx.dialect.name === 'mysql') query.forUpdate()
      const rows = await query
      const ids = rows.map((row) => String(row.public_id)).sort(compareIds)
      await trx
        .from('queue_lines')
        .where('id', line.id)
        .update({ members_root: merkleRoot(ids), member_count: ids.length })
    })
    return (await this.line(line.product_id))!
  }

  /**
   * Gives the places from the committed round (from the relays, or a verified file): the
   * members in the rule's order, then those who came late in the order they came. Once.
   */
  async order(productId: number, given?: Beacon): Promise<LineRow | null> {
    const product = await this.product(productId)
    let line = await this.commit(product)
    if (!line) return null
    line = await this.close(line)
    if (line.ordered_at || !line.closed_at || !line.beacon_round) return line
    const round = Number(line.beacon_round)
    let beacon: Beacon
    if (given) {
      if (!(await verifyBeacon(given, round))) {
        throw AppError.unprocessable(
          `This is not quicknet round ${round} with a valid signature.`,
          { beacon: `Expected quicknet round ${round}.` },
          'beacon_invalid'
        )
      }
      beacon = given
    } else {
      if (clock.nowMs() < roundTime(round) * 1000) return line
      try {
        beacon = await beaconSource.fetch(round)
      } catch (error) {
        if (!(error instanceof BeaconUnavailable)) throw error
        await db
          .from('queue_lines')
          .where('id', line.id)
          .update({ beacon_error: error.message.slice(0, 255), beacon_checked_at: sqlTime() })
        return this.line(productId)
      }
    }
    const orderedLine = line
    await db.transaction(async (trx) => {
      const claimed = await trx
        .from('queue_lines')
        .where('id', orderedLine.id)
        .whereNull('ordered_at')
        .update({
          ordered_at: sqlTime(),
          beacon_randomness: beacon.randomness,
          beacon_signature: beacon.signature,
          beacon_error: null,
          updated_at: sqlTime(),
        })
      if (affectedRows(claimed) !== 1) return
      const members = await trx
        .from('queue_places')
        .where('product_id', productId)
        .where('late', false)
        .select('id', 'public_id')
      const byPublicId = new Map(members.map((row) => [String(row.public_id), Number(row.id)]))
      const ranked = rankEntries(orderedLine.seed, beacon.randomness, [...byPublicId.keys()])
      for (const entry of ranked) {
        await trx
          .from('queue_places')
          .where('id', byPublicId.get(entry.entryId)!)
          .update({ place: entry.rank })
      }
      const late = await trx
        .from('queue_places')
        .where('product_id', productId)
        .where('late', true)
        .whereNull('place')
        .orderBy('id', 'asc')
        .select('id')
      for (const [index, row] of late.entries()) {
        await trx
          .from('queue_places')
          .where('id', row.id)
          .update({ place: ranked.length + index + 1 })
      }
    })
    return this.line(productId)
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
    const product = await this.product(productId)
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
    const line = await this.commit(product)
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
    const product = await this.product(productId)
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
    let line = await this.line(product.id)
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
    return this.passFor(product.id, userId, place, memberId)
  }

  /** The customer's one pass: issued once, shown again while valid, then spent or expired. */
  private async passFor(
    productId: number,
    userId: number,
    place: number,
    memberId: string
  ): Promise<LineStatus> {
    let pass = await db
      .from('queue_passes')
      .where('product_id', productId)
      .where('user_id', userId)
      .first()
    if (!pass) {
      try {
        await db.table('queue_passes').insert({
          product_id: productId,
          user_id: userId,
          place,
          token_hash: randomBytes(16).toString('hex'),
          issued_at: sqlTime(),
          expires_at: sqlTime(new Date(clock.nowMs() + PASS_TTL_SECONDS * 1000)),
        })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
      pass = await db
        .from('queue_passes')
        .where('product_id', productId)
        .where('user_id', userId)
        .first()
    }
    if (pass.spent_at) return { state: 'spent', memberId, place }
    const expiresAt = timeOf(pass.expires_at)!
    if (expiresAt.getTime() <= clock.nowMs()) return { state: 'expired', memberId, place }
    return {
      state: 'admitted',
      memberId,
      place,
      pass: this.passToken(productId, userId, String(pass.token_hash)),
      expiresAt: expiresAt.toISOString(),
    }
  }

  /** A pass: product, its nonce and a signature binding them to the customer. */
  passToken(productId: number, userId: number, nonce: string) {
    return `${productId}.${nonce}.${signature(`${productId}.${userId}.${nonce}`)}`
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

  /**
   * The checkout's gate for a drop with a waiting room: no purchase before the sale opens, and
   * after it only with this customer's pass for this product. Returns the pass's nonce, which
   * the checkout spends in its own transaction (`spendPass`).
   */
  requirePass(
    product: { id: number; queueOpen: boolean | null },
    userId: number,
    pass: unknown
  ): string | null {
    if (product.queueOpen === null) return null
    if (!product.queueOpen) {
      throw AppError.conflict('This drop is not on sale yet: join the line.', 'queue_not_open')
    }
    const nonce =
      typeof pass === 'string' && pass.length <= 200
        ? this.checkPass(pass, product.id, userId)
        : null
    if (!nonce) throw new AppError(PASS_REQUIRED, { status: 403, code: 'queue_pass_required' })
    return nonce
  }

  private checkPass(pass: string, productId: number, userId: number): string | null {
    const parts = pass.split('.')
    if (parts.length !== 3) return null
    const [product, nonce, given] = parts
    if (Number(product) !== productId || !/^[0-9a-f]{32}$/.test(nonce)) return null
    const expected = Buffer.from(signature(`${product}.${userId}.${nonce}`))
    const actual = Buffer.from(given)
    return expected.length === actual.length && timingSafeEqual(expected, actual) ? nonce : null
  }

  /**
   * Spends the pass inside the checkout's transaction, on its session: once, unexpired, by its
   * own customer. A checkout that fails afterwards rolls the spending back with it.
   */
  async spendPass(
    session: DriverSession,
    input: { productId: number; userId: number; nonce: string }
  ) {
    const now = sqlTime()
    const spent = await session.run(
      `UPDATE queue_passes SET spent_at = ? WHERE token_hash = ? AND product_id = ? AND user_id = ?
        AND spent_at IS NULL AND expires_at > ?`,
      [now, input.nonce, input.productId, input.userId, now]
    )
    if (spent.changes === 1) return
    const row = await session.first<{ spent_at: unknown }>(
      'SELECT spent_at FROM queue_passes WHERE token_hash = ? AND product_id = ? AND user_id = ?',
      [input.nonce, input.productId, input.userId]
    )
    if (row?.spent_at) throw new AppError(PASS_SPENT, { status: 403, code: 'queue_pass_spent' })
    throw new AppError(PASS_REQUIRED, { status: 403, code: 'queue_pass_required' })
  }

  /** Records which order spent a pass (same transaction as the spending). */
  async passSpentBy(session: DriverSession, nonce: string, orderId: number) {
    await session.run('UPDATE queue_passes SET order_id = ? WHERE token_hash = ?', [orderId, nonce])
  }

  /** The line's public proof: commitment, members, beacon, seed and places; nothing personal. */
  async proof(productId: number): Promise<LineProof> {
    const product = await this.product(productId)
    let line = await this.commit(product)
    if (line && !line.closed_at) line = await this.close(line)
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
    const product = await this.product(productId)
    const line = await this.line(product.id)
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
    const [spent] = await db
      .from('queue_passes')
      .where('product_id', product.id)
      .whereNotNull('spent_at')
      .count('* as total')
    return {
      productId: product.id,
      opensAt: product.queueOpensAt!.toISO(),
      minutes: product.queueMinutes,
      letThroughPerMinute: rate,
      inLine: total,
      letThrough,
      waiting: total - letThrough,
      passesSpent: Number(spent?.total ?? 0),
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
