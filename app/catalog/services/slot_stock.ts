import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import { sqlTime } from '#core/helpers/sql_time'
import { affectedRows } from '#core/helpers/db_errors'
import type { DriverSession } from '#core/services/driver_session'

const TAKE_SLOT = `UPDATE products SET stock_taken = stock_taken + 1 WHERE id = ? AND avail = 1
  AND stock_taken < total_stock AND (release_at IS NULL OR release_at > ?)`

/**
 * The product's slot counter, changed only by single conditional statements (docs/decisions.md,
 * "Order lifecycle"), so no interleaving of checkouts can ever take more than `total_stock` slots:
 * the row is changed only while `stock_taken < total_stock`, and the database applies each UPDATE
 * atomically.
 * (The catalog module owns the products table; these two statements are the slot purchase.)
 */
export class SlotStock {
  /**
   * Takes one slot of an available, unreleased product; false when none is left. Inside the
   * checkout's transaction on its driver session (the one statement every checkout of a drop
   * waits for: the row stays locked until the commit).
   */
  async take(productId: number, session: DriverSession): Promise<boolean> {
    const result = await session.run(TAKE_SLOT, [productId, sqlTime()])
    return result.changes === 1
  }

  /** Gives one slot back (cancelled order, declined hold). */
  /**
   * Locks the product's row for the rest of the transaction. A transition that may give a slot
   * back or take one again calls it before it touches the order: a purchase locks the product
   * first and then writes the order, so both lock in the same order and cannot deadlock.
   */
  async lockFirst(productId: number, trx: TransactionClientContract): Promise<void> {
    await trx.from('products').where('id', productId).forUpdate().select('id')
  }

  async giveBack(productId: number, trx: TransactionClientContract): Promise<void> {
    soldOutMemory.forget(productId)
    await trx
      .from('products')
      .where('id', productId)
      .where('stock_taken', '>', 0)
      .update({ stock_taken: db.knexRawQuery('stock_taken - 1') })
  }

  /**
   * Gives one slot back only while the product is not released yet (an order failed early);
   * true when it did.
   */
  async giveBackIfUnreleased(productId: number, trx: TransactionClientContract): Promise<boolean> {
    soldOutMemory.forget(productId)
    const result = await trx
      .from('products')
      .where('id', productId)
      .where('stock_taken', '>', 0)
      .where((query) => query.whereNull('release_at').orWhere('release_at', '>', sqlTime()))
      .update({ stock_taken: db.knexRawQuery('stock_taken - 1') })
    return affectedRows(result) === 1
  }

  /**
   * Takes a slot for a draw's winner (or the alternate who replaces one). A draw's winners are
   * as many as the slots it committed to when its entries opened, and the product's total stock
   * cannot change after that (`draw_committed`): the draw decides, the counter follows it, so
   * neither a sell-out of the counter nor a product set unavailable can leave a winner without
   * the slot the draw gave them.
   */
  async takeForDrawWinner(productId: number, trx: TransactionClientContract): Promise<void> {
    soldOutMemory.forget(productId)
    await trx
      .from('products')
      .where('id', productId)
      .update({ stock_taken: db.knexRawQuery('stock_taken + 1') })
  }

  /**
   * Takes one slot back for a failed order that is tried again (it gave its slot back when it
   * failed): the same conditional UPDATE as a purchase, without the release-time rule (a retry
   * happens on release day). False when the product is sold out or withdrawn.
   */
  async retake(productId: number, trx: TransactionClientContract): Promise<boolean> {
    const result = await trx
      .from('products')
      .where('id', productId)
      .where('avail', true)
      .whereColumn('stock_taken', '<', 'total_stock')
      .update({ stock_taken: db.knexRawQuery('stock_taken + 1') })
    return affectedRows(result) === 1
  }
}

export const slotStock = new SlotStock()
