import type { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Order, { type OrderStatus } from '#orders/models/order'

export { ACTIVE_STATUSES } from '#orders/models/order'
import { AppError } from '#core/exceptions/app_error'
import { sqlTime } from '#core/helpers/sql_time'
import { FEE_CHARGEABLE_STATUSES, FEE_DUE_STATUSES } from '#shared/vocabulary'
import { FINAL_STATUSES } from '#orders/services/order_card_data'
import { orderNumber, parseOrderReference } from '#orders/services/order_numbers'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

/**
 * An order as other modules read it: its columns as plain, frozen data (no model to save; every
 * change goes through the lifecycle or the payment state).
 */
export type OrderRecord = Readonly<ModelAttributes<Order>>

function toRecord(order: Order): OrderRecord {
  return Object.freeze({ ...order.$attributes }) as OrderRecord
}

const toRecords = (orders: Order[]) => orders.map(toRecord)

/** Reading orders: a customer's own list and lookups by public id. */
export class OrderQueries {
  /** How many orders a customer has (`open`: only those not final yet), optionally in `trx`. */
  async countFor(userId: number, options: { open?: boolean; trx?: QueryClientContract } = {}) {
    const query = (options.trx ?? db).from('orders').where('user_id', userId)
    if (options.open) query.whereNotIn('status', [...FINAL_STATUSES])
    const rows = await query.count('* as total')
    return Number(rows[0].total)
  }

  /**
   * The customer's orders, newest first, with the draw entry id of an order that entered a draw
   * (`$extras.draw_entry_id`: the customer's own id in the draw's published proof).
   */
  async forCustomer(userId: number) {
    return Order.query()
      .where('orders.user_id', userId)
      .leftJoin('draw_entries', 'draw_entries.order_id', 'orders.id')
      .select('orders.*', 'draw_entries.public_id as draw_entry_id')
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
  }

  query() {
    return Order.query()
  }

  async find(id: number): Promise<OrderRecord | null> {
    const order = await Order.find(id)
    return order ? toRecord(order) : null
  }

  async findById(id: number): Promise<OrderRecord> {
    const order = await Order.find(id)
    if (!order) throw AppError.notFound('Order not found.', 'order_not_found')
    return toRecord(order)
  }

  async findByPublicId(publicId: unknown): Promise<OrderRecord> {
    const order =
      typeof publicId === 'string' && publicId.length <= 36
        ? await Order.findBy('publicId', publicId)
        : null
    if (!order) throw AppError.notFound('Order not found.', 'order_not_found')
    return toRecord(order)
  }

  /**
   * The order a person names (the console's URLs, the CLI's arguments): its public id (UUID) or
   * its confirmation number (`DS-7K3Q9X`, any case, with or without `DS-`). Anything else is the
   * same 404 as an unknown order, and its message says which names are taken.
   */
  async findByReference(reference: unknown): Promise<OrderRecord> {
    const named = parseOrderReference(reference)
    let order: Order | null = null
    if (named && 'id' in named) order = await Order.find(named.id)
    else if (named) order = await Order.findBy('publicId', named.publicId)
    if (!order) {
      const given = typeof reference === 'string' ? reference.trim().slice(0, 40) : ''
      const shown = named?.label ?? given
      throw AppError.notFound(
        `Order ${shown ? `${shown} ` : ''}not found: give its DS- number (DS-7K3Q9X) or its id (UUID).`,
        'order_not_found'
      )
    }
    return toRecord(order)
  }

  /**
   * Orders waiting for release day or a draw whose $1.00 card check is still queued (or being
   * placed) although they were placed before `placedBefore`: how many, and a few of their
   * numbers (the alert on holds). A check waiting for the customer's 3-D Secure has its own
   * deadline and is not counted. Read through the hold status index.
   */
  async waitingWithoutHold(placedBefore: DateTime, sample = 5) {
    const scoped = () =>
      db
        .from('orders')
        .whereIn('hold_status', ['queued', 'placing'])
        .whereIn('status', ['pending', 'entered'])
        .where('created_at', '<=', sqlTime(placedBefore))
    const [counted, rows] = await Promise.all([
      scoped().count('* as total'),
      scoped().select('id').orderBy('id', 'asc').limit(sample),
    ])
    return {
      count: Number(counted[0]?.total ?? 0),
      orderNumbers: rows.map((row: { id: number }) => orderNumber(Number(row.id))),
    }
  }

  /**
   * Waiting orders whose placed $1.00 hold lapses within `withinHours` (or already did) while its
   * renewal, due since `renewalDueBefore` or earlier, has not happened: the hold sweep or the
   * gateway is stuck, and the order would reach release day without an authorization.
   */
  async holdsLapsingUnrenewed(
    now: DateTime,
    options: { withinHours: number; renewalDueBefore: DateTime },
    sample = 5
  ) {
    const scoped = () =>
      db
        .from('orders')
        .whereIn('status', ['pending', 'entered'])
        .where('hold_status', 'placed')
        .whereNotNull('hold_expires_at')
        .where('hold_expires_at', '<=', sqlTime(now.plus({ hours: options.withinHours })))
        .where((renewal) =>
          renewal
            .whereNull('hold_renew_at')
            .orWhere('hold_renew_at', '<=', sqlTime(options.renewalDueBefore))
        )
    const [counted, lapsed, rows] = await Promise.all([
      scoped().count('* as total'),
      scoped().where('hold_expires_at', '<=', sqlTime(now)).count('* as total'),
      scoped().select('id').orderBy('hold_expires_at', 'asc').limit(sample),
    ])
    return {
      count: Number(counted[0]?.total ?? 0),
      lapsed: Number(lapsed[0]?.total ?? 0),
      orderNumbers: rows.map((row: { id: number }) => orderNumber(Number(row.id))),
    }
  }

  /**
   * Money still open on orders (dashboard): successful orders whose fee is not charged yet
   * (none, failed or waiting for the customer's authentication) and $1.00 holds placed and not
   * released.
   */
  async openMoney() {
    const [due, holds] = await Promise.all([
      Order.query()
        .where('status', 'success')
        .whereIn('fee_status', FEE_CHARGEABLE_STATUSES)
        .where('price_cents', '>', 0)
        .count('* as total')
        .sum('price_cents as cents'),
      Order.query()
        .where('hold_status', 'placed')
        .count('* as total')
        .sum('hold_amount_cents as cents'),
    ])
    const read = (rows: Order[]) => ({
      count: Number(rows[0]?.$extras.total ?? 0),
      cents: Number(rows[0]?.$extras.cents ?? 0),
    })
    return { feesDue: read(due), holdsOpen: read(holds) }
  }
}

/** Release-day reads (the release module reaches orders only through these). */
export class ReleaseOrderQueries {
  /** Pending orders of these products whose $1.00 card check is placed: ready to submit. */
  async readyToSubmit(productIds: number[]): Promise<OrderRecord[]> {
    if (productIds.length === 0) return []
    return toRecords(
      await Order.query()
        .whereIn('product_id', productIds)
        .where('status', 'pending')
        .where('hold_status', 'placed')
        .orderBy('id', 'asc')
    )
  }

  /** Pending orders of these products still waiting for their card check (counted, not sent). */
  async awaitingHold(productIds: number[]): Promise<number> {
    if (productIds.length === 0) return 0
    const rows = await db
      .from('orders')
      .whereIn('product_id', productIds)
      .where('status', 'pending')
      .whereIn('hold_status', ['queued', 'placing', 'requires_action'])
      .count('* as total')
    return Number(rows[0]?.total ?? 0)
  }

  async processing(productIds: number[] | null): Promise<OrderRecord[]> {
    const query = Order.query().where('status', 'processing').orderBy('id', 'asc')
    if (productIds) query.whereIn('product_id', productIds)
    return toRecords(await query)
  }

  /** Successful orders whose fee was declined, still worth another try. */
  async feeDue(options: {
    maxAttempts: number
    lastTryBefore: DateTime
    productIds: number[] | null
  }): Promise<OrderRecord[]> {
    const query = Order.query()
      .where('status', 'success')
      .whereIn('fee_status', FEE_DUE_STATUSES)
      .where('fee_attempts', '<', options.maxAttempts)
      .where('updated_at', '<=', sqlTime(options.lastTryBefore))
      .orderBy('id', 'asc')
    if (options.productIds) query.whereIn('product_id', options.productIds)
    return toRecords(await query)
  }

  async byIds(ids: number[]): Promise<OrderRecord[]> {
    if (ids.length === 0) return []
    return toRecords(await Order.query().whereIn('id', ids).orderBy('id', 'asc'))
  }

  async withStatuses(statuses: OrderStatus[], productId: number | null): Promise<OrderRecord[]> {
    const query = Order.query().whereIn('status', statuses).orderBy('id', 'asc')
    if (productId) query.where('product_id', productId)
    return toRecords(await query)
  }

  /** Release-day figures: orders by status, fees charged and due, holds still open. */
  async releaseFigures(productId: number | null) {
    const scoped = () => {
      const query = db.from('orders')
      if (productId) query.where('product_id', productId)
      return query
    }
    const byStatus = await scoped().select('status').count('* as total').groupBy('status')
    const fees = await scoped()
      .where('fee_status', 'paid')
      .count('* as total')
      .sum('price_cents as cents')
    const due = await scoped()
      .where('status', 'success')
      .whereIn('fee_status', FEE_DUE_STATUSES)
      .count('* as total')
      .sum('price_cents as cents')
    const holds = await scoped().where('hold_status', 'placed').count('* as total')
    const statuses: Record<string, number> = {
      pending: 0,
      processing: 0,
      success: 0,
      fail: 0,
      cancelled: 0,
      retailer_cancelled: 0,
    }
    for (const row of byStatus) statuses[row.status] = Number(row.total)
    return {
      statuses,
      feesCharged: Number(fees[0]?.total ?? 0),
      feesChargedCents: Number(fees[0]?.cents ?? 0),
      feesDue: Number(due[0]?.total ?? 0),
      feesDueCents: Number(due[0]?.cents ?? 0),
      holdsOpen: Number(holds[0]?.total ?? 0),
    }
  }
}

export const releaseOrderQueries = new ReleaseOrderQueries()

/**
 * Where an order of a release ended, as its public outcome report counts it: still open, a
 * success, a failure at the retailer, a success the retailer cancelled afterwards (corrected to
 * failed), or never handed to the retailer (card check declined, not selected in a draw,
 * cancelled). The one place that decides it: a new status lands here.
 */
export type ReportOutcome =
  'open' | 'succeeded' | 'failed' | 'cancelled_after_success' | 'not_submitted'

export function reportOutcomeOf(order: { status: string; succeededAt: unknown }): ReportOutcome {
  if (order.status === 'entered' || order.status === 'pending' || order.status === 'processing') {
    return 'open'
  }
  if (order.status === 'success') return 'succeeded'
  if (order.status === 'fail') return order.succeededAt ? 'cancelled_after_success' : 'failed'
  // The retailer's signed cancellation of a confirmed order (the mail intake): fee refunded.
  if (order.status === 'retailer_cancelled') return 'cancelled_after_success'
  return 'not_submitted'
}

/** One order of a release as its outcome report reads it (nothing about the customer but an id). */
export type ReportOrderRow = {
  id: number
  /** Never published: the reconciliation finds the gateway's records by it. */
  publicId: string
  userId: number
  createdAt: Date
  size: string
  /** Where and in which size a succeeded order was won (null: its product's retailer, its size). */
  securedRetailer: string | null
  securedSize: string | null
  outcome: ReportOutcome
  /** The failure's category (sold_out, declined, address, other) of a failed order. */
  failCode: string | null
  /** Not selected in a draw (a draw's entries that never became orders for release day). */
  notSelected: boolean
  feeStatus: string
  priceCents: number
  refundedCents: number
}

export type OutcomeCounts = Record<ReportOutcome, number> & { orders: number }

const emptyCounts = (): OutcomeCounts => ({
  orders: 0,
  open: 0,
  succeeded: 0,
  failed: 0,
  cancelled_after_success: 0,
  not_submitted: 0,
})

/** The reads of the public release reports (the release module reaches orders through these). */
export class ReportOrderQueries {
  async rowsOf(productId: number): Promise<ReportOrderRow[]> {
    const rows = await db
      .from('orders')
      .where('product_id', productId)
      .select(
        'id',
        'public_id',
        'user_id',
        'created_at',
        'status',
        'size',
        'secured_retailer',
        'secured_size',
        'fail_code',
        'fail_reason',
        'succeeded_at',
        'fee_status',
        'price_cents',
        'refunded_cents'
      )
      .orderBy('id', 'asc')
    return rows.map((row) => {
      const outcome = reportOutcomeOf({ status: row.status, succeededAt: row.succeeded_at })
      return {
        id: Number(row.id),
        publicId: String(row.public_id),
        userId: Number(row.user_id),
        createdAt:
          row.created_at instanceof Date
            ? row.created_at
            : new Date(`${String(row.created_at).replace(' ', 'T')}Z`),
        size: String(row.size),
        securedRetailer: row.secured_retailer ?? null,
        securedSize: row.secured_size ?? null,
        outcome,
        failCode: outcome === 'failed' ? (row.fail_code ?? 'other') : null,
        notSelected: row.status === 'cancelled' && row.fail_reason === 'draw_not_selected',
        feeStatus: String(row.fee_status),
        priceCents: Number(row.price_cents),
        refundedCents: Number(row.refunded_cents),
      }
    })
  }

  /** Orders of each product by outcome, in one grouped query. */
  async outcomeCounts(productIds: number[]): Promise<Map<number, OutcomeCounts>> {
    const counts = new Map<number, OutcomeCounts>()
    if (productIds.length === 0) return counts
    const rows = await db
      .from('orders')
      .whereIn('product_id', productIds)
      .select('product_id', 'status')
      .select(db.raw('case when succeeded_at is null then 0 else 1 end as did_succeed'))
      .count('* as total')
      .groupByRaw('product_id, status, case when succeeded_at is null then 0 else 1 end')
    for (const row of rows) {
      const productId = Number(row.product_id)
      const entry = counts.get(productId) ?? emptyCounts()
      const outcome = reportOutcomeOf({
        status: row.status,
        succeededAt: Number(row.did_succeed) === 1,
      })
      entry[outcome] += Number(row.total)
      entry.orders += Number(row.total)
      counts.set(productId, entry)
    }
    return counts
  }
}

export const reportOrderQueries = new ReportOrderQueries()

export const orderQueries = new OrderQueries()
