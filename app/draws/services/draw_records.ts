import { randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import type { ProductRecord } from '#catalog/services/product_queries'
import type { DriverSession } from '#core/services/driver_session'
import { freezeEntries, frozenEntries } from '#draws/services/draw_freeze'
import { compareIds, makeCommitment, merkleRoot, sha256Hex, type Commitment } from '#shared/draw'

/** A draw's record (`draws`): its commitment, its frozen entry list, its beacon, its result. */
export type DrawRecord = Readonly<{
  id: number
  productId: number
  /** 1: drawn before public randomness (seed only); 2: the rule in shared/draw.ts. */
  ruleVersion: number
  seed: string
  seedHash: string
  slots: number | null
  entryOpensAt: Date | null
  entryClosesAt: Date | null
  chainHash: string | null
  publicKey: string | null
  round: number | null
  commitment: string | null
  committedAt: Date | null
  closedAt: Date | null
  entriesRoot: string | null
  entryCount: number | null
  beaconRandomness: string | null
  beaconSignature: string | null
  drawnAt: Date | null
  settledAt: Date | null
  beaconError: string | null
  beaconCheckedAt: Date | null
}>

/**
 * Writes a draw's or a waiting line's commitment once: onto its row while that row has none,
 * or as the product's new row. When another process committed it at the same moment (the
 * product's row is unique), its commitment stands.
 */
export async function commitOnce(
  table: 'draws' | 'queue_lines',
  committedColumn: 'committed_at' | 'commitment',
  productId: number,
  existingId: number | null,
  values: Record<string, unknown>
) {
  try {
    if (existingId !== null) {
      await db.from(table).where('id', existingId).whereNull(committedColumn).update(values)
    } else {
      await db
        .table(table)
        .insert({ product_id: productId, rule_version: 2, ...values, created_at: sqlTime() })
    }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
  }
}

/** A time read back from SQL: a Date (MariaDB) or `yyyy-MM-dd HH:mm:ss` UTC (SQLite). */
export function timeOf(value: unknown): Date | null {
  if (!value) return null
  if (value instanceof Date) return value
  const at = new Date(`${String(value).replace(' ', 'T')}Z`)
  return Number.isNaN(at.getTime()) ? null : at
}

function toRecord(row: Record<string, any>): DrawRecord {
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value))
  return Object.freeze({
    id: Number(row.id),
    productId: Number(row.product_id),
    ruleVersion: Number(row.rule_version),
    seed: String(row.seed),
    seedHash: String(row.seed_hash),
    slots: number(row.slots),
    entryOpensAt: timeOf(row.entry_opens_at),
    entryClosesAt: timeOf(row.entry_closes_at),
    chainHash: row.chain_hash ?? null,
    publicKey: row.public_key ?? null,
    round: number(row.beacon_round),
    commitment: row.commitment ?? null,
    committedAt: timeOf(row.committed_at),
    closedAt: timeOf(row.closed_at),
    entriesRoot: row.entries_root ?? null,
    entryCount: number(row.entry_count),
    beaconRandomness: row.beacon_randomness ?? null,
    beaconSignature: row.beacon_signature ?? null,
    drawnAt: timeOf(row.drawn_at),
    settledAt: timeOf(row.settled_at),
    beaconError: row.beacon_error ?? null,
    beaconCheckedAt: timeOf(row.beacon_checked_at),
  })
}

/** The published commitment of a record (null before entries open). */
export function commitmentOf(record: DrawRecord): Commitment | null {
  if (!record.committedAt || !record.commitment) return null
  return {
    productId: record.productId,
    seedHash: record.seedHash,
    slots: record.slots!,
    entryOpensAt: record.entryOpensAt!.toISOString(),
    entryClosesAt: record.entryClosesAt!.toISOString(),
    chainHash: record.chainHash!,
    publicKey: record.publicKey!,
    round: record.round!,
    digest: record.commitment,
  }
}

/** What a commitment is made from: the draw product's terms at the moment entries open. */
export type DrawTerms = { id: number; totalStock: number; entryOpensAt: Date; entryClosesAt: Date }

function commitmentRow(terms: DrawTerms, seed: string) {
  const commitment = makeCommitment({
    productId: terms.id,
    seed,
    slots: terms.totalStock,
    entryOpensAt: terms.entryOpensAt,
    entryClosesAt: terms.entryClosesAt,
  })
  return {
    seed,
    seed_hash: sha256Hex(seed),
    slots: commitment.slots,
    entry_opens_at: sqlTime(new Date(commitment.entryOpensAt)),
    entry_closes_at: sqlTime(new Date(commitment.entryClosesAt)),
    chain_hash: commitment.chainHash,
    public_key: commitment.publicKey,
    beacon_round: commitment.round,
    commitment: commitment.digest,
    committed_at: sqlTime(),
    updated_at: sqlTime(),
  }
}

/** The ids of a draw's frozen entries, ascending (the order every party sorts them in). */
export async function sortedEntryIds(
  productId: number,
  client: TransactionClientContract | typeof db = db
): Promise<string[]> {
  const rows = await frozenEntries(client, productId).select('public_id')
  return rows.map((row) => String(row.public_id)).sort(compareIds)
}

/**
 * The draws table: a draw's record is written when its entries open (the commitment, once),
 * frozen when they close (the entry list's root, once), then completed by the draw. Each step
 * is one conditional statement, so however many processes try, it happens exactly once.
 */
class DrawRecords {
  async find(productId: number): Promise<DrawRecord | null> {
    const row = await db.from('draws').where('product_id', productId).first()
    return row ? toRecord(row) : null
  }

  async findMany(productIds: number[]): Promise<DrawRecord[]> {
    if (productIds.length === 0) return []
    const rows = await db.from('draws').whereIn('product_id', productIds)
    return rows.map(toRecord)
  }

  /**
   * The commitment, made when the draw's entries open (never before: its slots and window may
   * still change until then) from the product as it is, with a fresh secret seed. Catalog
   * refuses changes to the slots, the window and the mode from then on (`draw_committed`), so
   * the product keeps saying what was committed. Idempotent: the first commitment stands.
   */
  async commit(product: ProductRecord): Promise<DrawRecord | null> {
    const existing = await this.find(product.id)
    if (existing?.committedAt || existing?.ruleVersion === 1) return existing
    if (product.releaseMode !== 'draw' || !product.entryOpensAt || !product.entryClosesAt) {
      return existing
    }
    if (product.entryOpensAt.toMillis() > clock.nowMs()) return existing
    // A draw carried over from before keeps the seed whose hash it already published.
    const values = commitmentRow(
      {
        id: product.id,
        totalStock: product.totalStock,
        entryOpensAt: product.entryOpensAt.toJSDate(),
        entryClosesAt: product.entryClosesAt.toJSDate(),
      },
      existing?.seed ?? randomBytes(32).toString('hex')
    )
    await commitOnce('draws', 'committed_at', product.id, existing?.id ?? null, values)
    return this.find(product.id)
  }

  /**
   * The same commitment made on the checkout's driver session (its connection is the only one
   * SQLite's pool has while it runs): the first entry of a draw may come before the scheduled
   * job has committed it. Returns the digest and round the entry is taken under.
   */
  async commitOnSession(
    session: DriverSession,
    terms: DrawTerms
  ): Promise<{ commitment: string; round: number } | null> {
    type Row = {
      seed: string
      commitment: string | null
      beacon_round: number | null
      rule_version: number
    }
    const read = () =>
      session.first<Row>(
        'SELECT seed, commitment, beacon_round, rule_version FROM draws WHERE product_id = ?',
        [terms.id]
      )
    let row = await read()
    if (!row?.commitment && Number(row?.rule_version ?? 2) === 2) {
      const values = commitmentRow(terms, row?.seed ?? randomBytes(32).toString('hex'))
      const columns = Object.keys(values) as (keyof typeof values)[]
      try {
        if (row) {
          await session.run(
            `UPDATE draws SET ${columns.map((column) => `${column} = ?`).join(', ')}
             WHERE product_id = ? AND committed_at IS NULL`,
            [...columns.map((column) => values[column]), terms.id]
          )
        } else {
          await session.run(
            `INSERT INTO draws (product_id, rule_version, created_at, ${columns.join(', ')})
             VALUES (?, 2, ?, ${columns.map(() => '?').join(', ')})`,
            [terms.id, sqlTime(), ...columns.map((column) => values[column])]
          )
        }
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
      row = await read()
    }
    if (!row?.commitment || row.beacon_round === null) return null
    return { commitment: row.commitment, round: Number(row.beacon_round) }
  }

  /**
   * Freezes the entry list once entries have closed: `closed_at` is set by a conditional UPDATE
   * of the draw's row, which waits for every entry being written (each entry's INSERT reads that
   * row under a shared lock on MariaDB, and SQLite writes one at a time) and after which no
   * entry can be written (the INSERT requires `closed_at IS NULL`). In the same transaction the
   * entries whose card check stands are frozen (`draw_freeze.ts`, before the committed round is
   * out) and their sorted ids' Merkle root is stored: the ranking is of that list, all of it.
   */
  async close(record: DrawRecord): Promise<DrawRecord> {
    if (record.closedAt || !record.entryClosesAt) return record
    if (record.entryClosesAt.getTime() > clock.nowMs()) return record
    await db.transaction(async (trx) => {
      const claimed = await trx
        .from('draws')
        .where('id', record.id)
        .whereNull('closed_at')
        .update({ closed_at: sqlTime(), updated_at: sqlTime() })
      if (affectedRows(claimed) !== 1) return
      const ids = await freezeEntries(record, trx)
      await trx
        .from('draws')
        .where('id', record.id)
        .update({ entries_root: merkleRoot(ids), entry_count: ids.length })
    })
    return (await this.find(record.productId))!
  }

  /** Notes why a due draw still waits for its beacon (console and /health), or that it no longer does. */
  async noteBeacon(record: DrawRecord, error: string | null) {
    await db
      .from('draws')
      .where('id', record.id)
      .update({ beacon_error: error?.slice(0, 255) ?? null, beacon_checked_at: sqlTime() })
  }

  async markSettled(record: DrawRecord) {
    await db
      .from('draws')
      .where('id', record.id)
      .whereNull('settled_at')
      .update({ settled_at: sqlTime(), updated_at: sqlTime() })
  }

  /** Records not yet closed whose entries have closed. */
  async dueToClose(): Promise<DrawRecord[]> {
    const rows = await db
      .from('draws')
      .whereNotNull('committed_at')
      .whereNull('closed_at')
      .where('entry_closes_at', '<=', sqlTime())
    return rows.map(toRecord)
  }

  /** Closed records not drawn yet (their beacon round may or may not be out). */
  async closedNotDrawn(): Promise<DrawRecord[]> {
    const rows = await db.from('draws').whereNotNull('closed_at').whereNull('drawn_at')
    return rows.map(toRecord)
  }

  /** Drawn records whose orders are not all settled. */
  async drawnNotSettled(): Promise<DrawRecord[]> {
    const rows = await db.from('draws').whereNotNull('drawn_at').whereNull('settled_at')
    return rows.map(toRecord)
  }

  /** Drawn records (for replacing winners before release day). */
  async drawnSince(since: Date): Promise<DrawRecord[]> {
    const rows = await db
      .from('draws')
      .whereNotNull('drawn_at')
      .where('drawn_at', '>=', sqlTime(since))
    return rows.map(toRecord)
  }

  /** Closed records whose round is due and that still wait for it (for /health). */
  async waitingForBeacon(): Promise<DrawRecord[]> {
    const rows = await db
      .from('draws')
      .whereNotNull('closed_at')
      .whereNull('drawn_at')
      .whereNotNull('beacon_error')
    return rows.map(toRecord)
  }
}

export const drawRecords = new DrawRecords()
