import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { sqlTime } from '#core/helpers/sql_time'
import { WAITING_STATUSES } from '#orders/services/order_payment_state'
import { orderNumber } from '#orders/services/order_numbers'

export type HoldCoverage = {
  /** When the counts were read (the product's clock). */
  at: string
  /** Orders waiting for release day or their draw (pending, entered). */
  waitingOrders: number
  /**
   * Waiting orders without a live $1.00 hold now: not placed yet (queued, being placed, waiting
   * for the customer's 3-D Secure), or placed and lapsed. Each should be covered within a sweep.
   */
  waitingWithoutLiveHold: number
  /** The same orders by their hold's status (`lapsed`: placed, past its expiry). */
  withoutLiveHoldByStatus: Record<string, number>
  /** Live holds of waiting orders whose authorization lapses within the window (24 h). */
  holdsExpiringWithin24h: number
}

/** A live hold: placed and not lapsed, or a renewal awaiting 3-D Secure while the old one lives. */
function live(query: any, now: string) {
  return query.where((outer: any) =>
    outer
      .where((placed: any) =>
        placed
          .where('hold_status', 'placed')
          .where((expiry: any) =>
            expiry.whereNull('hold_expires_at').orWhere('hold_expires_at', '>', now)
          )
      )
      .orWhere((renewing: any) =>
        renewing.where('hold_status', 'requires_action').where('hold_expires_at', '>', now)
      )
  )
}

/**
 * Whether every waiting order's card check is live: the counts the console's dashboard shows and
 * alerts read. A waiting order is one still to be checked out (pending) or drawn (entered); its
 * $1.00 hold must stay authorised until then, so the hold sweep renews it before it lapses.
 */
export async function holdCoverage(
  options: { within?: { hours: number } } = {}
): Promise<HoldCoverage> {
  const nowTime = DateTime.now()
  const now = sqlTime(nowTime)
  const until = sqlTime(nowTime.plus(options.within ?? { hours: 24 }))
  const waiting = () => db.from('orders').whereIn('status', WAITING_STATUSES)

  const [all, liveRows, expiring, notLive] = await Promise.all([
    waiting().count('* as total'),
    live(waiting(), now).count('* as total'),
    live(waiting(), now)
      .whereNotNull('hold_expires_at')
      .where('hold_expires_at', '<=', until)
      .count('* as total'),
    waiting()
      .whereNot((query: any) => live(query, now))
      .select('hold_status')
      .count('* as total')
      .groupBy('hold_status'),
  ])
  const count = (rows: any[]) => Number(rows[0]?.total ?? 0)
  const byStatus: Record<string, number> = {}
  for (const row of notLive) {
    const status = row.hold_status === 'placed' ? 'lapsed' : String(row.hold_status)
    byStatus[status] = (byStatus[status] ?? 0) + Number(row.total)
  }
  return {
    at: nowTime.toUTC().toISO()!,
    waitingOrders: count(all),
    waitingWithoutLiveHold: count(all) - count(liveRows),
    withoutLiveHoldByStatus: byStatus,
    holdsExpiringWithin24h: count(expiring),
  }
}

export type HoldRenewals = {
  /** Renewals (a new hold round placed before the old one lapsed) in the last 24 h. */
  last24h: number
  total: number
  /** The latest renewals, newest first. */
  recent: {
    orderId: string
    orderNumber: string
    round: number | null
    expiresAt: string | null
    at: string
  }[]
}

/** Hold renewals as the orders' timelines record them (`hold_renewed`). */
export async function holdRenewals(limit = 5): Promise<HoldRenewals> {
  const since = sqlTime(DateTime.now().minus({ hours: 24 }))
  const [recentCount, totalCount, latest] = await Promise.all([
    db
      .from('order_events')
      .where('kind', 'hold_renewed')
      .where('created_at', '>=', since)
      .count('* as total'),
    db.from('order_events').where('kind', 'hold_renewed').count('* as total'),
    db
      .from('order_events')
      .join('orders', 'orders.id', 'order_events.order_id')
      .where('order_events.kind', 'hold_renewed')
      .orderBy('order_events.id', 'desc')
      .limit(limit)
      .select(
        'orders.id as order_id',
        'orders.public_id',
        'order_events.meta',
        'order_events.created_at'
      ),
  ])
  return {
    last24h: Number(recentCount[0]?.total ?? 0),
    total: Number(totalCount[0]?.total ?? 0),
    recent: latest.map((row: any) => {
      const meta = row.meta ? JSON.parse(row.meta) : {}
      const at =
        row.created_at instanceof Date
          ? row.created_at
          : new Date(`${String(row.created_at).replace(' ', 'T')}Z`)
      return {
        orderId: String(row.public_id),
        orderNumber: orderNumber(Number(row.order_id)),
        round: typeof meta.round === 'number' ? meta.round : null,
        expiresAt: typeof meta.expiresAt === 'string' ? meta.expiresAt : null,
        at: at.toISOString(),
      }
    }),
  }
}
