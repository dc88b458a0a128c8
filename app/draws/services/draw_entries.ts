import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { DriverSession } from '#core/services/driver_session'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { orderLifecycle, type NewOrder, type OpenedOrder } from '#orders/services/order_lifecycle'
import { addressKey, cardKey } from '#draws/services/draw_keys'
import { drawRecords, sortedEntryIds, timeOf } from '#draws/services/draw_records'
import { merkleProof, type InclusionProof } from '#shared/draw'
import { drawCardTakenWords, type CardShown } from '#shared/vocabulary'

export type DrawRule = 'account' | 'card' | 'address'

/** Why a second entry is refused; the card is the card on file, named so its owner knows it. */
const DUPLICATE_ENTRY: Record<DrawRule, (card: CardShown) => string> = {
  account: () => 'You have already entered this draw.',
  card: drawCardTakenWords,
  address: () => 'This shipping address is already entered in this draw. Select a new profile.',
}

export const DRAW_NOT_OPEN = 'Entries for this draw are not open yet.'
export const DRAW_CLOSED = 'Entries for this draw are closed.'

/** Which of the one-entry-per-person rules a unique violation came from. */
function ruleOf(error: unknown): DrawRule {
  const text = String((error as { message?: string; sqlMessage?: string })?.message ?? '')
  if (/one_per_card|card_fingerprint/.test(text)) return 'card'
  if (/one_per_address|address_key/.test(text)) return 'address'
  // draw_entries' (product, user) and the orders' one active order per product and profile.
  return 'account'
}

/**
 * The entry's row, written only while the draw takes entries, decided by the same statement
 * that writes it: the draw is committed, its window is open by the server's clock and it is
 * neither closed nor drawn. On MariaDB the draw's row is read under a shared lock, so the
 * statement that closes the draw (an UPDATE of that row) waits for every entry being written and
 * none can be written after it.
 */
function insertEntry(dialect: DriverSession['dialect']) {
  return `INSERT INTO draw_entries (public_id, product_id, order_id, user_id, card_fingerprint,
    address_key, created_at)
    SELECT ?, d.product_id, ?, ?, ?, ?, ? FROM draws d
    WHERE d.product_id = ? AND d.committed_at IS NOT NULL AND d.entry_opens_at <= ?
      AND d.entry_closes_at > ? AND d.closed_at IS NULL AND d.drawn_at IS NULL${
        dialect === 'mysql' ? ' LOCK IN SHARE MODE' : ''
      }`
}

export type DrawEntryRequest = {
  product: { id: number; totalStock: number; entryOpensAt: unknown; entryClosesAt: unknown }
  newOrder: NewOrder
  /** The gateway's fingerprint of the card the $1.00 check is made on (the card on file). */
  cardFingerprint: string
  /** That card as its owner knows it, for the refusal of a second entry with it. */
  card?: CardShown
  shipping: { address1: string; address2?: string | null; zip: string; country?: string | null }
}

export type DrawEntry = {
  order: OpenedOrder
  entryId: string
  /** The commitment's digest and round, for the entrant's receipt. */
  commitment: string
  round: number
}

/**
 * Entering a draw: inside the committed window (the server's clock, checked by the statement
 * that writes the entry), one entry per person. The order (entered, no slot taken, its $1.00
 * check queued like a purchase's) and the entry are written together; the unique indexes on
 * account, card (the gateway's fingerprint of the card on file) and address (its postal normal
 * form) decide a second entry, which answers 409 `duplicate` with the rule that refused it and
 * is counted for the console. Called by the checkout for a draw product, on its session.
 */
export class DrawEntries {
  async enter(session: DriverSession, request: DrawEntryRequest): Promise<DrawEntry> {
    const { product, newOrder } = request
    const opensAt = timeOf(product.entryOpensAt)
    const closesAt = timeOf(product.entryClosesAt)
    const now = clock.nowMs()
    if (!opensAt || !closesAt || now < opensAt.getTime()) {
      throw AppError.conflict(DRAW_NOT_OPEN, 'draw_not_open')
    }
    if (now >= closesAt.getTime()) throw AppError.conflict(DRAW_CLOSED, 'draw_closed')
    const committed = await drawRecords.commitOnSession(session, {
      id: product.id,
      totalStock: product.totalStock,
      entryOpensAt: opensAt,
      entryClosesAt: closesAt,
    })
    if (!committed) throw AppError.conflict(DRAW_CLOSED, 'draw_closed')

    const entryId = randomUUID()
    const card = cardKey(request.cardFingerprint)
    const address = addressKey(request.shipping)
    try {
      const order = await session.transaction(async () => {
        const opened = await orderLifecycle.enter(newOrder, session)
        const at = sqlTime()
        const written = await session.run(insertEntry(session.dialect), [
          entryId,
          opened.id,
          newOrder.userId,
          card,
          address,
          at,
          product.id,
          at,
          at,
        ])
        // Closed (or drawn) by the time the statement ran: nothing of the entry is kept.
        if (written.changes !== 1) throw AppError.conflict(DRAW_CLOSED, 'draw_closed')
        return opened
      })
      return { order, entryId, ...committed }
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      const rule = ruleOf(error)
      // On the checkout's own session: it holds a pooled connection, and asking the pool for a
      // second one in a rush of refusals would wait on itself.
      await session.run('INSERT INTO draw_blocks (product_id, rule, created_at) VALUES (?, ?, ?)', [
        product.id,
        rule,
        sqlTime(),
      ])
      const message = DUPLICATE_ENTRY[rule](request.card)
      // The card rule names what is at fault, the card on file: another profile cannot help.
      throw new AppError(message, {
        status: 409,
        code: 'duplicate',
        ...(rule === 'card' ? { errors: { cardOnFile: message } } : {}),
      })
    }
  }

  /** The entry id of an order, for the customer's own view of it. */
  async entryIdsOf(orderIds: number[]): Promise<Map<number, string>> {
    if (orderIds.length === 0) return new Map()
    const rows = await db
      .from('draw_entries')
      .whereIn('order_id', orderIds)
      .select('order_id', 'public_id')
    return new Map(rows.map((row) => [Number(row.order_id), String(row.public_id)]))
  }

  /**
   * One entry's inclusion proof in the frozen list (public: an entry id reveals nothing about
   * its entrant). 404 for an entry id that is not in it (saying so when the entry was left out
   * because its card check did not stand at the close), 409 before entries close.
   */
  async inclusion(productId: number, entryId: string): Promise<InclusionProof> {
    let record = Number.isSafeInteger(productId) ? await drawRecords.find(productId) : null
    if (!record) throw AppError.notFound('This product has no draw.', 'not_a_draw')
    // Entries that closed a moment ago are frozen now (the scheduled job may not have run yet).
    if (record.committedAt && !record.closedAt) record = await drawRecords.close(record)
    if (!record.closedAt || !record.entriesRoot) {
      throw AppError.conflict('The entry list is published when entries close.', 'draw_not_closed')
    }
    const ids = await sortedEntryIds(productId)
    const index = ids.indexOf(entryId)
    if (index < 0) {
      const left = await db
        .from('draw_entries')
        .where('product_id', productId)
        .where('public_id', entryId)
        .where('result', 'skipped')
        .first()
      if (left) {
        throw AppError.notFound(
          "This entry's $1.00 card check did not stand when entries closed: it is not in the frozen list and takes no part in the draw.",
          'entry_not_frozen'
        )
      }
      throw AppError.notFound('There is no such entry in this draw.', 'entry_not_found')
    }
    return {
      entryId,
      index,
      entryCount: ids.length,
      siblings: merkleProof(ids, index),
      entriesRoot: record.entriesRoot,
    }
  }
}

export const drawEntries = new DrawEntries()
