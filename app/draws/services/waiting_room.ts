import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { productQueries } from '#catalog/services/product_queries'
import type { ProductRecord } from '#catalog/services/product_queries'

/** How long a pass lets its holder check out after the line let them through. */
export const PASS_TTL_SECONDS = 10 * 60

export const PASS_REQUIRED =
  'Wait for your turn in line: this drop lets customers through in order.'

export type LineStatus =
  | { state: 'waiting'; opensAt: string; secondsLeft: number }
  | { state: 'in_line'; place: number; ahead: number; letThroughPerMinute: number }
  | { state: 'admitted'; place: number; pass: string; expiresAt: string }

let passKey: Buffer | null = null
function signature(payload: string) {
  passKey ??= createHmac('sha256', env.get('APP_KEY')).update('dropslot:queue-pass').digest()
  return createHmac('sha256', passKey).update(payload).digest('base64url')
}

const hasRoom = (product: Pick<ProductRecord, 'queueMinutes' | 'queueOpensAt'>) =>
  product.queueMinutes !== null &&
  product.queueMinutes !== undefined &&
  Boolean(product.queueOpensAt)

/**
 * The waiting room of a first-come drop. Customers who arrive in the minutes before the sale
 * opens join the line; when it opens they get random places, all at once and exactly once (a
 * conditional UPDATE of `queue_ordered_at` claims the shuffle), so arriving earlier within the
 * window gives no advantage; later arrivals join the end. The line lets `queue_rate_per_minute`
 * customers through per minute from the opening, each with a signed pass (product, customer,
 * expiry) the checkout requires. A place is a unique index, never a read-then-write.
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

  async join(productId: number, userId: number): Promise<LineStatus> {
    const product = await this.product(productId)
    const formsAt = product.queueOpensAt!.minus({ minutes: product.queueMinutes! })
    if (Date.now() < formsAt.toMillis()) {
      throw AppError.conflict(
        `The line for this drop forms at ${formsAt.toISO()}.`,
        'queue_not_open'
      )
    }
    try {
      await db.table('queue_places').insert({
        product_id: product.id,
        user_id: userId,
        joined_at: sqlTime(),
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    return this.status(productId, userId)
  }

  async status(productId: number, userId: number): Promise<LineStatus> {
    const product = await this.product(productId)
    const opensAt = product.queueOpensAt!
    if (Date.now() < opensAt.toMillis()) {
      return {
        state: 'waiting',
        opensAt: opensAt.toISO()!,
        secondsLeft: Math.ceil((opensAt.toMillis() - Date.now()) / 1000),
      }
    }
    if (!product.queueOrderedAt) await this.givePlaces(product.id)
    const place = await this.placeOf(product.id, userId)
    const rate = Math.max(1, product.queueRatePerMinute ?? 60)
    const letThrough = Math.floor(((Date.now() - opensAt.toMillis()) / 60_000) * rate) + rate
    if (place <= letThrough) {
      const expiresAt = Date.now() + PASS_TTL_SECONDS * 1000
      return {
        state: 'admitted',
        place,
        pass: this.issuePass(product.id, userId, expiresAt),
        expiresAt: new Date(expiresAt).toISOString(),
      }
    }
    return { state: 'in_line', place, ahead: place - letThrough - 1, letThroughPerMinute: rate }
  }

  /** Shuffles everyone who joined before the opening into places 1..n, once per drop. */
  private async givePlaces(productId: number) {
    await db.transaction(async (trx) => {
      const claimed = await trx
        .from('products')
        .where('id', productId)
        .whereNull('queue_ordered_at')
        .update({ queue_ordered_at: sqlTime() })
      if (affectedRows(claimed) !== 1) return
      const rows = await trx
        .from('queue_places')
        .where('product_id', productId)
        .whereNull('place')
        .select('id')
      const ids = rows.map((row) => Number(row.id))
      // Fisher-Yates with a cryptographic source: every order equally likely.
      for (let index = ids.length - 1; index > 0; index--) {
        const other = randomInt(index + 1)
        ;[ids[index], ids[other]] = [ids[other], ids[index]]
      }
      for (const [index, id] of ids.entries()) {
        await trx
          .from('queue_places')
          .where('id', id)
          .update({ place: index + 1 })
      }
    })
  }

  /** The customer's place; one who joined after the shuffle (or never) takes the next free one. */
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
        if (row) {
          await db
            .from('queue_places')
            .where('id', row.id)
            .whereNull('place')
            .update({ place: next })
        } else {
          await db.table('queue_places').insert({
            product_id: productId,
            user_id: userId,
            joined_at: sqlTime(),
            place: next,
          })
        }
      } catch (error) {
        // Someone else took that place (or joined for this customer) at the same moment.
        if (!isUniqueViolation(error)) throw error
      }
    }
    throw AppError.conflict('The line is busy: try again in a moment.', 'queue_busy')
  }

  issuePass(productId: number, userId: number, expiresAtMs: number) {
    const payload = `${productId}.${userId}.${Math.floor(expiresAtMs / 1000)}`
    return `${payload}.${signature(payload)}`
  }

  /**
   * The checkout's gate for a drop with a waiting room: no purchase before the sale opens, and
   * after it only with a valid, unexpired pass of this customer for this product.
   */
  requirePass(
    product: { id: number; queueOpen: boolean | null },
    userId: number,
    pass: unknown
  ): void {
    if (product.queueOpen === null) return
    if (!product.queueOpen) {
      throw AppError.conflict('This drop is not on sale yet: join the line.', 'queue_not_open')
    }
    const valid =
      typeof pass === 'string' && pass.length <= 200 && this.checkPass(pass, product.id, userId)
    if (!valid) throw new AppError(PASS_REQUIRED, { status: 403, code: 'queue_pass_required' })
  }

  private checkPass(pass: string, productId: number, userId: number): boolean {
    const parts = pass.split('.')
    if (parts.length !== 4) return false
    const [product, user, expires, given] = parts
    if (Number(product) !== productId || Number(user) !== userId) return false
    if (!/^\d+$/.test(expires) || Number(expires) * 1000 < Date.now()) return false
    const expected = Buffer.from(signature(`${product}.${user}.${expires}`))
    const actual = Buffer.from(given)
    return expected.length === actual.length && timingSafeEqual(expected, actual)
  }

  /** The console's view: how many wait, how many have places, how many the line let through. */
  async figures(productId: number) {
    const product = await this.product(productId)
    const [row] = await db
      .from('queue_places')
      .where('product_id', product.id)
      .count('* as total')
      .max('place as placed')
    const total = Number(row?.total ?? 0)
    const rate = Math.max(1, product.queueRatePerMinute ?? 60)
    const open = Date.now() >= product.queueOpensAt!.toMillis()
    const letThrough = open
      ? Math.min(
          total,
          Math.floor(((Date.now() - product.queueOpensAt!.toMillis()) / 60_000) * rate) + rate
        )
      : 0
    return {
      productId: product.id,
      opensAt: product.queueOpensAt!.toISO(),
      minutes: product.queueMinutes,
      letThroughPerMinute: rate,
      inLine: total,
      letThrough,
      waiting: total - letThrough,
    }
  }
}

export const waitingRoom = new WaitingRoom()
