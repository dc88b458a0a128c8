import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { crashPoint } from '#core/services/crash_points'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import { productQueries } from '#catalog/services/product_queries'
import drawsConfig from '#config/draws'
import { beaconSource, BeaconUnavailable } from '#draws/services/beacon_source'
import { replacementsOf } from '#draws/services/draw_replacements'
import {
  commitmentOf,
  drawRecords,
  sortedEntryIds,
  type DrawRecord,
} from '#draws/services/draw_records'
import { NOT_SELECTED, drawSettlement, entriesOf } from '#draws/services/draw_settlement'
import {
  QUICKNET,
  compareIds,
  drawResult,
  merkleRoot,
  roundTime,
  verifyBeacon,
  verifyDraw,
  type Beacon,
  type DrawProof,
} from '#shared/draw'

export type { DrawProof }

export type DrawReport = {
  productId: number
  /** false when the draw had already run: nothing about its result changed. */
  drawnNow: boolean
  round: number | null
  /** Entries ranked: the list frozen at the close, all of it. */
  entries: number
  /** Entries that took no part (their card check did not stand at the close). */
  skipped: number
  winners: string[]
  alternates: string[]
  /** Orders moved by this call (winners to pending, the others closed). */
  moved: number
  /** Alternates who took the place of a winner who dropped out before release day. */
  promoted: number
  settled: boolean
}

/** Holds that are still being placed: the draw waits for them to have an answer. */
const CHECK_IN_FLIGHT = ['queued', 'placing']

async function findDraw(productId: number) {
  const product = Number.isSafeInteger(productId) ? await productQueries.find(productId) : null
  if (!product) throw AppError.notFound(`Product ${productId} not found.`, 'product_not_found')
  if (product.releaseMode !== 'draw') {
    throw AppError.conflict(`Product ${productId} is not a draw.`, 'not_a_draw')
  }
  return product
}

const iso = (at: Date | null) => (at ? at.toISOString() : null)

/**
 * Runs a draw (docs/decisions.md, "Draws are verifiable, not trusted"). Its record is committed
 * when entries open and frozen when they close (`draw_records.ts`); then the draw waits for its
 * quicknet round, verifies the beacon's signature and ranks every entry frozen at the close by
 * the rule in shared/draw.ts, claiming the draw (`drawn_at`) and recording every
 * entry's result in one transaction, so it is decided exactly once however many runners try.
 * The orders then follow the recorded result and winners who drop out before release day are
 * replaced by alternates (`draw_settlement.ts`); a later call changes nothing of the result.
 */
export class DrawRunner {
  async run(
    productId: number,
    actor: AuditActor,
    options: { beacon?: Beacon } = {}
  ): Promise<DrawReport> {
    const product = await findDraw(productId)
    let record = await drawRecords.commit(product)
    if (!record || (!record.committedAt && record.ruleVersion !== 1)) {
      throw AppError.conflict(
        `Entries for product ${productId} open at ${product.entryOpensAt?.toISO() ?? '(not set)'}; the draw runs after they close.`,
        'draw_not_closed'
      )
    }
    let drawnNow = false
    if (!record.drawnAt) {
      if (record.entryClosesAt!.getTime() > clock.nowMs()) {
        throw AppError.conflict(
          `Entries for product ${productId} close at ${iso(record.entryClosesAt)}; the draw runs after that.`,
          'draw_not_closed'
        )
      }
      record = await drawRecords.close(record)
      const beacon = await this.beaconFor(record, options.beacon)
      drawnNow = await this.decide(record, beacon)
      crashPoint('draw-decided')
      record = (await drawRecords.find(product.id))!
    }
    // A settled draw has nothing left to move; only a winner dropping out can change it.
    const moved = record.settledAt ? 0 : await drawSettlement.finish(record)
    const promoted = await drawSettlement.replaceDroppedOut(record, product)
    const settled = await drawSettlement.settleIfDone(record)
    const entries = await entriesOf(product.id)
    const byRank = (result: string) =>
      entries
        .filter((entry) => entry.result === result)
        .sort((a, b) => Number(a.rank) - Number(b.rank))
        .map((entry) => entry.public_id)
    const report: DrawReport = {
      productId: product.id,
      drawnNow,
      round: record.round,
      entries: entries.filter((entry) => entry.rank !== null).length,
      skipped: entries.filter((entry) => entry.result === 'skipped').length,
      winners: byRank('winner'),
      alternates: byRank('alternate'),
      moved,
      promoted,
      settled,
    }
    if (
      drawnNow ||
      moved > 0 ||
      promoted > 0 ||
      !('label' in actor && actor.label === 'scheduler')
    ) {
      await auditLog.record({
        actor,
        action: drawnNow ? 'draw.run' : 'draw.run_again',
        subjectType: 'product',
        subjectId: product.id,
        meta: {
          entries: report.entries,
          skipped: report.skipped,
          winners: report.winners.length,
          round: record.round,
          beacon: options.beacon ? 'file' : 'relay',
          moved,
          promoted,
          changed: drawnNow || moved > 0 || promoted > 0,
        },
      })
    }
    return report
  }

  /**
   * The committed round: from the operator's file (accepted only if its signature verifies; the
   * operator is trusted with nothing) or from the relays once it is published. No relay: the
   * draw waits, and says why (console, /health).
   */
  private async beaconFor(record: DrawRecord, given?: Beacon): Promise<Beacon> {
    const round = record.round!
    if (given) {
      const beacon = { ...given, chainHash: given.chainHash ?? QUICKNET.chainHash }
      if (!(await verifyBeacon(beacon, round))) {
        throw AppError.unprocessable(
          `This is not quicknet round ${round} with a valid signature: the draw is not run.`,
          { beacon: `Expected quicknet round ${round}, signed by the chain's key.` },
          'beacon_invalid'
        )
      }
      return beacon
    }
    const dueAt = roundTime(round) * 1000
    if (clock.nowMs() < dueAt) {
      throw AppError.conflict(
        `The draw uses quicknet round ${round}, published at ${new Date(dueAt).toISOString()}: it runs after that.`,
        'beacon_not_due'
      )
    }
    await this.waitForCardChecks(record, dueAt)
    try {
      const beacon = await beaconSource.fetch(round)
      await drawRecords.noteBeacon(record, null)
      return beacon
    } catch (error) {
      if (!(error instanceof BeaconUnavailable)) throw error
      await drawRecords.noteBeacon(record, error.message)
      throw new AppError(`The draw waits for quicknet round ${round}: ${error.message}`, {
        status: 503,
        code: 'beacon_unavailable',
      })
    }
  }

  /** Entries whose $1.00 check is still being placed get their answer first (for a while). */
  private async waitForCardChecks(record: DrawRecord, dueAt: number) {
    const waitUntil = dueAt + drawsConfig.cardCheckWaitMinutes * 60_000
    if (clock.nowMs() >= waitUntil) return
    const [row] = await db
      .from('draw_entries')
      .join('orders', 'orders.id', 'draw_entries.order_id')
      .where('draw_entries.product_id', record.productId)
      .where('orders.status', 'entered')
      .whereIn('orders.hold_status', CHECK_IN_FLIGHT)
      .count('* as total')
    const inFlight = Number(row?.total ?? 0)
    if (inFlight > 0) {
      throw AppError.conflict(
        `${inFlight} card check(s) of this draw are still being placed: the draw waits for them (at most until ${new Date(waitUntil).toISOString()}).`,
        'card_checks_pending'
      )
    }
  }

  /**
   * Claims the draw with its beacon and records every entry's result; false if another run got
   * there. The ranking is of the list frozen at the close (`draw_freeze.ts`), all of it: nothing
   * known now, the randomness included, takes an entry out, and a list that no longer hashes to
   * the published root is not drawn.
   */
  private async decide(record: DrawRecord, beacon: Beacon): Promise<boolean> {
    return db.transaction(async (trx) => {
      const claimed = await trx
        .from('draws')
        .where('id', record.id)
        .whereNull('drawn_at')
        .whereNotNull('closed_at')
        .update({
          drawn_at: sqlTime(),
          beacon_randomness: beacon.randomness,
          beacon_signature: beacon.signature,
          beacon_error: null,
          updated_at: sqlTime(),
        })
      if (affectedRows(claimed) !== 1) return false
      const rows = await trx
        .from('draw_entries')
        .where('product_id', record.productId)
        .whereNull('result')
        .select('id', 'public_id')
      const frozen = new Map(rows.map((row) => [String(row.public_id), Number(row.id)]))
      if (merkleRoot([...frozen.keys()].sort(compareIds)) !== record.entriesRoot) {
        throw AppError.conflict(
          `The entries of product ${record.productId} no longer hash to the root published at the close: the draw is not run.`,
          'draw_entries_changed'
        )
      }
      const { winners, alternates } = drawResult(
        record.seed,
        beacon.randomness,
        [...frozen.keys()],
        record.slots ?? 0
      )
      const ranked = [...winners, ...alternates]
      for (const [index, entryId] of ranked.entries()) {
        const won = index < winners.length
        await trx
          .from('draw_entries')
          .where('id', frozen.get(entryId)!)
          .update({ rank: index + 1, won, result: won ? 'winner' : 'alternate' })
      }
      return true
    })
  }

  /**
   * What anyone may see of a draw, and nothing personal: the commitment from when entries
   * opened; the frozen entry list and its root from when they closed; the beacon, the seed,
   * the winners and the alternates once it has run, and each replacement since with its reason.
   */
  async proof(productId: number): Promise<DrawProof> {
    const product = await findDraw(productId)
    let record = await drawRecords.commit(product)
    if (record?.committedAt && !record.closedAt) record = await drawRecords.close(record)
    if (!record || (!record.committedAt && record.ruleVersion === 2)) {
      return {
        productId: product.id,
        status: 'not_open',
        commitment: null,
        slots: product.totalStock,
        entryOpensAt: product.entryOpensAt?.toUTC().toISO() ?? null,
        entryClosesAt: product.entryClosesAt?.toUTC().toISO() ?? null,
        beacon: null,
        entriesRoot: null,
        entries: [],
        entryCount: 0,
        seed: null,
        winners: [],
        alternates: [],
        replacements: [],
      }
    }
    const drawn = Boolean(record.drawnAt)
    const closed = Boolean(record.closedAt) || record.ruleVersion === 1
    const entries = await entriesOf(product.id)
    const byRank = (result: string) =>
      entries
        .filter((entry) => entry.result === result)
        .sort((a, b) => Number(a.rank) - Number(b.rank))
        .map((entry) => entry.public_id)
    return {
      productId: product.id,
      status: drawn ? 'drawn' : closed ? 'closed' : 'open',
      commitment: commitmentOf(record),
      slots: record.slots ?? product.totalStock,
      entryOpensAt: iso(record.entryOpensAt) ?? product.entryOpensAt?.toUTC().toISO() ?? null,
      entryClosesAt: iso(record.entryClosesAt) ?? product.entryClosesAt?.toUTC().toISO() ?? null,
      beacon: record.round
        ? {
            chainHash: record.chainHash ?? QUICKNET.chainHash,
            round: record.round,
            randomness: drawn ? record.beaconRandomness : null,
            signature: drawn ? record.beaconSignature : null,
          }
        : null,
      entriesRoot: record.entriesRoot,
      entries: closed ? await sortedEntryIds(product.id) : [],
      entryCount: closed ? (record.entryCount ?? entries.length) : entries.length,
      seed: drawn ? record.seed : null,
      winners: drawn ? byRank('winner') : [],
      alternates: drawn ? byRank('alternate') : [],
      replacements: drawn ? replacementsOf(entries, NOT_SELECTED) : [],
    } as DrawProof
  }

  /** Checks a published draw from its proof alone (shared/draw.ts). */
  async verify(proof: DrawProof) {
    return verifyDraw(proof)
  }

  /**
   * The scheduled job's work (`draws.run-due`, every minute): commits draws whose entries
   * opened, freezes those whose entries closed, runs those whose round is out, finishes those
   * not settled and replaces winners who dropped out before release day.
   */
  async sweep(): Promise<{ productId: number; error?: string }[]> {
    const now = sqlTime()
    const opened = await productQueries
      .query()
      .where('release_mode', 'draw')
      .whereNotNull('entry_opens_at')
      .where('entry_opens_at', '<=', now)
      .whereNotIn(
        'id',
        db
          .from('draws')
          .where((query) => query.whereNotNull('committed_at').orWhere('rule_version', 1))
          .select('product_id')
      )
      .select('id')
    for (const { id } of opened) {
      const product = await productQueries.find(id)
      if (product) await drawRecords.commit(product)
    }
    for (const record of await drawRecords.dueToClose()) await drawRecords.close(record)

    const due = new Set<number>()
    for (const record of await drawRecords.closedNotDrawn()) {
      if (record.round && roundTime(record.round) * 1000 <= clock.nowMs()) due.add(record.productId)
    }
    for (const record of await drawRecords.drawnNotSettled()) due.add(record.productId)
    const recent = await drawRecords.drawnSince(new Date(clock.nowMs() - 90 * 86_400_000))
    if (recent.length) {
      const upcoming = await productQueries
        .query()
        .whereIn(
          'id',
          recent.map((record) => record.productId)
        )
        .where((query) => query.whereNull('release_at').orWhere('release_at', '>', now))
        .select('id')
      for (const { id } of upcoming) due.add(id)
    }
    const outcomes: { productId: number; error?: string }[] = []
    for (const productId of due) {
      try {
        await this.run(productId, { label: 'scheduler' })
        outcomes.push({ productId })
      } catch (error) {
        // One draw that waits (no beacon yet) or fails must not stop the others.
        logger.warn({ err: error, productId }, 'draw not run')
        outcomes.push({ productId, error: (error as Error).message })
      }
    }
    return outcomes
  }

  /** Counts for the console's draw view: second entries refused per rule, and the beacon's state. */
  async figures(productId: number) {
    const blocks = await db
      .from('draw_blocks')
      .where('product_id', productId)
      .groupBy('rule')
      .select('rule')
      .count('* as total')
    const blocked = { account: 0, card: 0, address: 0 } as Record<string, number>
    for (const row of blocks) blocked[String(row.rule)] = Number(row.total)
    const record = await drawRecords.find(productId)
    const round = record?.round ?? null
    return {
      blocked,
      beaconDueAt: round ? new Date(roundTime(round) * 1000).toISOString() : null,
      waitingForBeacon: Boolean(record?.closedAt && !record.drawnAt && record.beaconError),
      beaconError: record && !record.drawnAt ? record.beaconError : null,
      beaconCheckedAt: iso(record?.beaconCheckedAt ?? null),
      settled: Boolean(record?.settledAt),
    }
  }

  /** Draws whose beacon round is out and that still wait for it (/health). */
  async waitingForBeacon() {
    const records = await drawRecords.waitingForBeacon()
    return records.map((record) => ({
      productId: record.productId,
      round: record.round,
      reason: record.beaconError,
    }))
  }
}

export const drawRunner = new DrawRunner()
