import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import type { DriverSession } from '#core/services/driver_session'
import { timeOf } from '#draws/services/draw_records'

/** How long a pass lets its holder check out after the line let them through. */
export const PASS_TTL_SECONDS = 10 * 60

export const PASS_REQUIRED =
  'Wait for your turn in line: this drop lets customers through in order.'
export const PASS_SPENT = 'Your pass for this drop was used for a checkout already: it is for one.'

/** Where a customer the line let through stands with their pass. */
export type PassStatus =
  | { state: 'admitted'; memberId: string; place: number; pass: string; expiresAt: string }
  | { state: 'spent' | 'expired'; memberId: string; place: number }

let passKey: Buffer | null = null
function signature(payload: string) {
  passKey ??= createHmac('sha256', env.get('APP_KEY')).update('dropslot:queue-pass').digest()
  return createHmac('sha256', passKey).update(payload).digest('base64url')
}

/**
 * The passes of a waiting room: one per customer the line let through, signed for one
 * checkout of theirs, valid for `PASS_TTL_SECONDS` and spent by that checkout.
 */
export class WaitingRoomPasses {
  /** The customer's one pass: issued once, shown again while valid, then spent or expired. */
  async issue(
    productId: number,
    userId: number,
    place: number,
    memberId: string
  ): Promise<PassStatus> {
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
      pass: this.token(productId, userId, String(pass.token_hash)),
      expiresAt: expiresAt.toISOString(),
    }
  }

  /** A pass: product, its nonce and a signature binding them to the customer. */
  token(productId: number, userId: number, nonce: string) {
    return `${productId}.${nonce}.${signature(`${productId}.${userId}.${nonce}`)}`
  }

  /**
   * The checkout's gate for a drop with a waiting room: no purchase before the sale opens, and
   * after it only with this customer's pass for this product. Returns the pass's nonce, which
   * the checkout spends in its own transaction (`spend`).
   */
  require(
    product: { id: number; queueOpen: boolean | null },
    userId: number,
    pass: unknown
  ): string | null {
    if (product.queueOpen === null) return null
    if (!product.queueOpen) {
      throw AppError.conflict('This drop is not on sale yet: join the line.', 'queue_not_open')
    }
    const nonce =
      typeof pass === 'string' && pass.length <= 200 ? this.check(pass, product.id, userId) : null
    if (!nonce) throw new AppError(PASS_REQUIRED, { status: 403, code: 'queue_pass_required' })
    return nonce
  }

  private check(pass: string, productId: number, userId: number): string | null {
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
  async spend(session: DriverSession, input: { productId: number; userId: number; nonce: string }) {
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
  async spentBy(session: DriverSession, nonce: string, orderId: number) {
    await session.run('UPDATE queue_passes SET order_id = ? WHERE token_hash = ?', [orderId, nonce])
  }

  /** How many of the drop's passes a checkout spent (the console's figures). */
  async spentCount(productId: number): Promise<number> {
    const [spent] = await db
      .from('queue_passes')
      .where('product_id', productId)
      .whereNotNull('spent_at')
      .count('* as total')
    return Number(spent?.total ?? 0)
  }
}

export const waitingRoomPasses = new WaitingRoomPasses()
