import db from '@adonisjs/lucid/services/db'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import { productQueries } from '#catalog/services/product_queries'
import { slotStock } from '#catalog/services/slot_stock'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderQueries } from '#orders/services/order_queries'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderEmails } from '#notifications/services/order_emails'
import { rankEntries, verifyDraw, type DrawProof } from '#shared/draw'

export type { DrawProof }
import { drawHmac, sha256Hex } from '#draws/services/draw_keys'

export const NOT_SELECTED = 'draw_not_selected'

export type DrawReport = {
  productId: number
  /** false when the draw had already run: nothing about its result changed. */
  drawnNow: boolean
  entries: number
  winners: string[]
  /** Orders moved by this call (winners to pending, the others closed). */
  moved: number
}

type EntryRow = {
  id: number
  public_id: string
  order_id: number
  won: unknown
  rank: number | null
  status: string
}

/** A ranked entry's result as stored (a boolean, or 0/1 on MariaDB). */
const wonBy = (entry: Pick<EntryRow, 'won'>) => Number(entry.won) === 1

async function findDraw(productId: number) {
  const product = Number.isSafeInteger(productId) ? await productQueries.find(productId) : null
  if (!product) throw AppError.notFound(`Product ${productId} not found.`, 'product_not_found')
  if (product.releaseMode !== 'draw') {
    throw AppError.conflict(`Product ${productId} is not a draw.`, 'not_a_draw')
  }
  return product
}

/**
 * Runs a draw once its entries have closed: the first run claims the product (`drawn_at`, a
 * conditional UPDATE) and ranks the entries whose card check still stands, all in one
 * transaction, so a draw is decided exactly once however many runners try. The orders then
 * follow the recorded ranks (winners pending with their hold kept and a slot taken; the others
 * closed, their hold released, never charged) and each customer is e-mailed once. A later call
 * changes nothing of the result; it only finishes orders a crash left behind. Audited.
 */
export class DrawRunner {
  async run(productId: number, actor: AuditActor): Promise<DrawReport> {
    const product = await findDraw(productId)
    let drawnNow = false
    if (!product.drawnAt) {
      if (!product.entryClosesAt || product.entryClosesAt.toMillis() > Date.now()) {
        throw AppError.conflict(
          `Entries for product ${productId} close at ${product.entryClosesAt?.toISO() ?? '(not set)'}; the draw runs after that.`,
          'draw_not_closed'
        )
      }
      drawnNow = await this.decide(product.id, product.drawSeed!, product.totalStock)
    }
    const moved = await this.finish(product.id)
    const entries = await this.entries(product.id)
    const winners = entries
      .filter((entry) => entry.rank !== null && wonBy(entry))
      .sort((a, b) => Number(a.rank) - Number(b.rank))
      .map((entry) => entry.public_id)
    const pool = entries.filter((entry) => entry.rank !== null).length
    await auditLog.record({
      actor,
      action: drawnNow ? 'draw.run' : 'draw.run_again',
      subjectType: 'product',
      subjectId: product.id,
      meta: { entries: pool, winners: winners.length, moved, changed: drawnNow || moved > 0 },
    })
    return { productId: product.id, drawnNow, entries: pool, winners, moved }
  }

  /** Claims the draw and records every eligible entry's rank; false if another run got there. */
  private async decide(productId: number, seed: string, slots: number): Promise<boolean> {
    return db.transaction(async (trx) => {
      const claimed = await trx
        .from('products')
        .where('id', productId)
        .whereNull('drawn_at')
        .update({ drawn_at: sqlTime(), updated_at: sqlTime() })
      if (affectedRows(claimed) !== 1) return false
      // The pool: entries whose card check was not declined (those orders are cancelled).
      const pool = await trx
        .from('draw_entries')
        .join('orders', 'orders.id', 'draw_entries.order_id')
        .where('draw_entries.product_id', productId)
        .where('orders.status', 'entered')
        .select('draw_entries.id', 'draw_entries.public_id')
      const byPublicId = new Map(pool.map((row) => [String(row.public_id), Number(row.id)]))
      const ranked = await rankEntries(seed, [...byPublicId.keys()], drawHmac)
      for (const entry of ranked) {
        await trx
          .from('draw_entries')
          .where('id', byPublicId.get(entry.entryId)!)
          .update({ rank: entry.rank, won: entry.rank <= slots })
      }
      return true
    })
  }

  /** Moves the orders of a decided draw to their result; each step is idempotent. */
  private async finish(productId: number): Promise<number> {
    let moved = 0
    for (const entry of await this.entries(productId)) {
      if (entry.rank === null || entry.status !== 'entered') continue
      if (wonBy(entry)) {
        const won = await db.transaction(async (trx) => {
          await slotStock.lockFirst(productId, trx)
          if (!(await orderLifecycle.drawWon(entry.order_id, trx))) return false
          if (!(await slotStock.retake(productId, trx))) {
            throw AppError.conflict(
              `Product ${productId} has no slot left for a winner: raise its total stock.`,
              'sold_out'
            )
          }
          return true
        })
        if (!won) continue
      } else {
        const { cancelled } = await orderSettlement.cancel(entry.order_id, { reason: NOT_SELECTED })
        if (!cancelled) continue
      }
      moved += 1
      const order = await orderQueries.findById(entry.order_id)
      await orderEmails.sendDrawResult(order, entry.public_id, wonBy(entry))
    }
    return moved
  }

  private async entries(productId: number): Promise<EntryRow[]> {
    return db
      .from('draw_entries')
      .join('orders', 'orders.id', 'draw_entries.order_id')
      .where('draw_entries.product_id', productId)
      .orderBy('draw_entries.id', 'asc')
      .select(
        'draw_entries.id',
        'draw_entries.public_id',
        'draw_entries.order_id',
        'draw_entries.won',
        'draw_entries.rank',
        'orders.status'
      )
  }

  /** What anyone may see of a draw: the commitment, and after the draw the seed and entry ids. */
  async proof(productId: number): Promise<DrawProof> {
    const product = await findDraw(productId)
    const entries = await this.entries(product.id)
    const drawn = Boolean(product.drawnAt)
    const pool = entries.filter((entry) => entry.rank !== null)
    return {
      productId: product.id,
      slots: product.totalStock,
      commitment: product.drawCommitment,
      drawnAt: product.drawnAt?.toISO() ?? null,
      seed: drawn ? product.drawSeed : null,
      entries: drawn ? pool.map((entry) => entry.public_id).sort() : [],
      winners: drawn
        ? pool
            .filter((entry) => wonBy(entry))
            .sort((a, b) => Number(a.rank) - Number(b.rank))
            .map((entry) => entry.public_id)
        : [],
      entryCount: drawn ? pool.length : entries.length,
    }
  }

  /** Recomputes a published draw from its proof alone: the seed's commitment and the winners. */
  async verify(proof: DrawProof) {
    if (!proof.seed) {
      throw AppError.conflict('This draw has not run yet: there is nothing to verify.', 'not_drawn')
    }
    const { winners: recomputed, ...check } = await verifyDraw(
      { ...proof, seed: proof.seed },
      sha256Hex,
      drawHmac
    )
    return { ...check, recomputed }
  }

  /** Draws whose entries have closed and that have not run yet (the scheduled job's work). */
  async due(): Promise<number[]> {
    const rows = await productQueries
      .query()
      .where('release_mode', 'draw')
      .whereNull('drawn_at')
      .whereNotNull('entry_closes_at')
      .where('entry_closes_at', '<=', sqlTime())
      .select('id')
    return rows.map((row) => row.id)
  }

  /** Counts for the console's draw view: entries, and second entries refused per rule. */
  async figures(productId: number) {
    const blocks = await db
      .from('draw_blocks')
      .where('product_id', productId)
      .groupBy('rule')
      .select('rule')
      .count('* as total')
    const blocked = { account: 0, card: 0, address: 0 } as Record<string, number>
    for (const row of blocks) blocked[String(row.rule)] = Number(row.total)
    return { blocked }
  }
}

export const drawRunner = new DrawRunner()
