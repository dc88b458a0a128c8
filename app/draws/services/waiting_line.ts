import { randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { productQueries } from '#catalog/services/product_queries'
import type { ProductRecord } from '#catalog/services/product_queries'
import { beaconSource, BeaconUnavailable } from '#draws/services/beacon_source'
import { commitOnce, timeOf } from '#draws/services/draw_records'
import {
  BEACON_DELAY_SECONDS,
  compareIds,
  makeLineCommitment,
  merkleRoot,
  rankEntries,
  roundTime,
  sha256Hex,
  verifyBeacon,
  type Beacon,
} from '#shared/draw'

export type LineRow = {
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

export const hasRoom = (product: Pick<ProductRecord, 'queueMinutes' | 'queueOpensAt'>) =>
  product.queueMinutes !== null &&
  product.queueMinutes !== undefined &&
  Boolean(product.queueOpensAt)

/** When the line closes: a minute before the sale, so its round is out when the sale opens. */
const closesAtOf = (product: ProductRecord) =>
  new Date(product.queueOpensAt!.toMillis() - BEACON_DELAY_SECONDS * 1000)

/** A product on sale whose drop has a waiting room. */
export async function roomProduct(productId: number) {
  const product = Number.isSafeInteger(productId) ? await productQueries.find(productId) : null
  if (!product || !product.avail) {
    throw AppError.notFound('Product not found.', 'product_not_found')
  }
  if (!hasRoom(product)) {
    throw AppError.conflict('This drop has no waiting room.', 'no_waiting_room')
  }
  return product
}

/**
 * The line's record (`queue_lines`): committed when the line forms (the SHA-256 of a secret
 * seed and a quicknet round after its close), its members frozen at the close, and the places
 * given once from that round's randomness by the draw's rule (shared/draw.ts).
 */
export class WaitingLine {
  async find(productId: number): Promise<LineRow | null> {
    return (await db.from('queue_lines').where('product_id', productId).first()) ?? null
  }

  /** The line's commitment, made when the line forms; the first one stands. */
  async commit(product: ProductRecord): Promise<LineRow | null> {
    const existing = await this.find(product.id)
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
    await commitOnce('queue_lines', 'commitment', product.id, existing?.id ?? null, values)
    return this.find(product.id)
  }

  /** Freezes the members at the close (the joins read the line's row under a shared lock). */
  async close(line: LineRow): Promise<LineRow> {
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
    return (await this.find(line.product_id))!
  }

  /**
   * Gives the places from the committed round (from the relays, or a verified file): the
   * members in the rule's order, then those who came late in the order they came. Once.
   */
  async order(productId: number, given?: Beacon): Promise<LineRow | null> {
    const product = await roomProduct(productId)
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
        return this.find(productId)
      }
    }
    await this.givePlaces(productId, line, beacon)
    return this.find(productId)
  }

  /** Claims the ordering with its beacon and writes every place, in one transaction. */
  private async givePlaces(productId: number, line: LineRow, beacon: Beacon) {
    await db.transaction(async (trx) => {
      const claimed = await trx
        .from('queue_lines')
        .where('id', line.id)
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
      const ranked = rankEntries(line.seed, beacon.randomness, [...byPublicId.keys()])
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
  }
}

export const waitingLine = new WaitingLine()
