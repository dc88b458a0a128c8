import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { cardVault } from '#core/services/card_vault'
import { affectedRows } from '#core/helpers/db_errors'

/** The card inside an order's sealed snapshot: full while the order may still be checked out. */
type SnapshotCard = {
  name?: string
  number?: string
  code?: string
  month?: string
  year?: string
  cardType?: string
  last4?: string
}
type Snapshot = { card?: SnapshotCard | null } & Record<string, unknown>

/**
 * The snapshot, or null when no key of ours opens it (a retired vault key): the order's outcome
 * must never fail on its card copy, so that case is logged and left as it is.
 */
function readable(sealed: string, orderId: number): Snapshot | null {
  try {
    return cardVault.open<Snapshot>(sealed)
  } catch {
    logger.warn({ orderId }, 'order card snapshot cannot be opened with the vault keys')
    return null
  }
}

export const FINAL_STATUSES = ['success', 'fail', 'cancelled', 'retailer_cancelled'] as const

/**
 * The card data an order keeps. The sealed snapshot holds the full card only for a checkout
 * bot on release day; the fee and refunds use the card saved at the gateway, never this copy.
 * So once an order is final (success, fail, cancelled) its number and CVV are deleted: the
 * snapshot keeps the name, brand, expiry and last 4 digits. A failed order tried again gets its
 * card back from the customer's profile.
 */
export class OrderCardData {
  /** Deletes number and CVV from a final order's snapshot; false when nothing was left to do. */
  async purge(orderId: number): Promise<boolean> {
    const row = await db.from('orders').where('id', orderId).select('aco_vault', 'status').first()
    if (!row?.aco_vault || !FINAL_STATUSES.includes(row.status)) return false
    const snapshot = readable(row.aco_vault, orderId)
    const card = snapshot?.card
    if (!snapshot || !card || (!card.number && !card.code)) return false
    const kept: SnapshotCard = { ...card, last4: card.last4 ?? String(card.number ?? '').slice(-4) }
    delete kept.number
    delete kept.code
    snapshot.card = kept
    // Conditional on the row as read: a concurrent change (a retry restoring the card) wins.
    const updated = await db
      .from('orders')
      .where('id', orderId)
      .where('aco_vault', row.aco_vault)
      .update({ aco_vault: cardVault.seal(snapshot) })
    return affectedRows(updated) === 1
  }

  /** Puts a full card back into the snapshot of an order that is active again (a retry). */
  /** Empties the card copy of every final order of a customer (account deletion); how many. */
  async purgeAllOf(userId: number): Promise<number> {
    const orders: { id: number }[] = await db
      .from('orders')
      .where('user_id', userId)
      .whereNotNull('aco_vault')
      .select('id')
    for (const order of orders) await this.purge(order.id)
    return orders.length
  }

  async restore(orderId: number, card: Required<Omit<SnapshotCard, 'last4'>>) {
    const row = await db.from('orders').where('id', orderId).select('aco_vault').first()
    const snapshot = row?.aco_vault ? readable(row.aco_vault, orderId) : null
    if (!snapshot) return
    snapshot.card = { ...card }
    await db
      .from('orders')
      .where('id', orderId)
      .update({ aco_vault: cardVault.seal(snapshot) })
  }

  /** Whether the order's snapshot still holds a full card number or CVV. */
  async holdsCard(orderId: number): Promise<boolean> {
    const row = await db.from('orders').where('id', orderId).select('aco_vault').first()
    const card = row?.aco_vault ? readable(row.aco_vault, orderId)?.card : null
    return Boolean(card?.number || card?.code)
  }
}

export const orderCardData = new OrderCardData()
