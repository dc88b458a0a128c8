import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { DriverSession } from '#core/services/driver_session'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { orderLifecycle, type NewOrder, type OpenedOrder } from '#orders/services/order_lifecycle'
import { addressKey, cardFingerprint } from '#draws/services/draw_keys'

export type DrawRule = 'account' | 'card' | 'address'

const DUPLICATE_ENTRY: Record<DrawRule, string> = {
  account: 'You have already entered this draw.',
  card: 'This card is already entered in this draw. Select a new profile.',
  address: 'This shipping address is already entered in this draw. Select a new profile.',
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

export type DrawEntryRequest = {
  product: { id: number; entriesOpen: boolean; entriesClosed: boolean }
  newOrder: NewOrder
  cardNumber: string
  shipping: { address1: string; address2?: string | null; zip: string; country?: string | null }
}

/**
 * Entering a draw: inside the window (the server's clock, to the second), one entry per person.
 * The order (entered, no slot taken, its $1.00 check queued like a purchase's) and the entry are
 * written together; the unique indexes on account, card fingerprint and address decide a second
 * entry, which answers 409 `duplicate` with the rule that refused it and is counted for the
 * console. Called by the checkout for a draw product, on the checkout's session.
 */
export class DrawEntries {
  async enter(
    session: DriverSession,
    request: DrawEntryRequest
  ): Promise<{ order: OpenedOrder; entryId: string }> {
    const { product, newOrder } = request
    if (!product.entriesOpen) throw AppError.conflict(DRAW_NOT_OPEN, 'draw_not_open')
    if (product.entriesClosed) throw AppError.conflict(DRAW_CLOSED, 'draw_closed')
    const entryId = randomUUID()
    const fingerprint = cardFingerprint(request.cardNumber)
    const address = addressKey(request.shipping)
    try {
      const order = await session.transaction(async () => {
        const opened = await orderLifecycle.enter(newOrder, session)
        await session.run(
          `INSERT INTO draw_entries (public_id, product_id, order_id, user_id, card_fingerprint,
            address_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [entryId, product.id, opened.id, newOrder.userId, fingerprint, address, sqlTime()]
        )
        return opened
      })
      return { order, entryId }
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
      throw AppError.conflict(DUPLICATE_ENTRY[rule], 'duplicate')
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
}

export const drawEntries = new DrawEntries()
