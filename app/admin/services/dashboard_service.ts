import { mailStatus } from '#mail/services/mail_status'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { productQueries } from '#catalog/services/product_queries'
import { ACTIVE_STATUSES, orderQueries } from '#orders/services/order_queries'
import { userQueries } from '#accounts/services/user_queries'
import { newsletterAdmin } from '#notifications/services/newsletter_admin_service'
import { emailAdmin } from '#notifications/services/email_admin_service'
import { ORDER_STATUSES, productList } from '#admin/services/list_definitions'
import { presentAdminProduct } from '#admin/services/presenters'
import { sqlDateTime } from '#core/services/rest_query'
import { paymentService } from '#payments/services/payment_service'
import { releaseRunner } from '#release/services/release_runner'
import { holdCoverage, holdRenewals } from '#orders/services/hold_coverage'
import { incidents, presentIncident } from '#alerts/services/incidents'

const DAYS = 14

async function total(query: { count: (column: string) => Promise<any[]> }) {
  const rows = await query.count('* as total')
  return Number(rows[0]?.$extras?.total ?? rows[0]?.total ?? 0)
}

/** Products whose release is still ahead, soonest first. */
function upcomingReleasesQuery(now: DateTime) {
  const query = productQueries
    .query()
    .where('release_at', '>', sqlDateTime(now))
    .orderBy('release_at', 'asc')
    .limit(8)
  productList.decorate!(query)
  return query
}

/** Products released in the last 72 hours, latest first. */
function recentReleasesQuery(now: DateTime) {
  const query = productQueries
    .query()
    .where('release_at', '<=', sqlDateTime(now))
    .where('release_at', '>', sqlDateTime(now.minus({ hours: 72 })))
    .orderBy('release_at', 'desc')
    .limit(8)
  productList.decorate!(query)
  return query
}

function stockFill(product: { totalStock: number; stockTaken: number }) {
  return product.totalStock > 0 ? product.stockTaken / product.totalStock : 1
}

function countOrdersByStatus(rows: Array<{ status: string; total: unknown }>) {
  const ordersByStatus = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0]))
  for (const row of rows) ordersByStatus[row.status] = Number(row.total)
  return ordersByStatus
}

/** One entry per day since `since` (today included), with every status counted, zero if none. */
function countOrdersByDay(
  since: DateTime,
  rows: Array<{ day: unknown; status: string; total: unknown }>
) {
  const days = Array.from({ length: DAYS }, (_, index) =>
    since.plus({ days: index }).toFormat('yyyy-MM-dd')
  )
  const ordersByDay = days.map((day) => ({
    day,
    ...Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])),
  })) as Array<Record<string, number | string>>
  for (const row of rows) {
    const entry = ordersByDay.find((item) => item.day === String(row.day))
    if (entry) entry[row.status] = Number(row.total)
  }
  return ordersByDay
}

function presentFees(
  bookedOnSuccessCents: number,
  moved: Awaited<ReturnType<typeof paymentService.totals>>,
  open: Awaited<ReturnType<typeof orderQueries.openMoney>>
) {
  return {
    /** Fees of orders marked successful: what the payment ledger should have captured. */
    bookedOnSuccessCents,
    /** Succeeded fee charges in the payment ledger. */
    capturedCents: moved.capturedCents,
    /** Succeeded refunds in the payment ledger. */
    refundedCents: moved.refundedCents,
    /** Captured minus refunded: what the business kept. */
    netCents: moved.capturedCents - moved.refundedCents,
    /** Successful orders whose fee is not charged yet (declined, waiting, or not tried). */
    dueCents: open.feesDue.cents,
    dueOrders: open.feesDue.count,
    /** $1.00 holds placed and not released yet. */
    holdsOpen: open.holdsOpen.count,
    holdsOpenCents: open.holdsOpen.cents,
  }
}

function presentMailIntake(mail: Awaited<ReturnType<typeof mailStatus.summary>>) {
  return {
    domain: mail.domain,
    unreadable: mail.unreadable,
    doors: mail.doors,
    inReview: mail.inReview,
    awaitingMailOverdue: mail.awaitingMailOverdue,
    last24h: mail.last24h,
  }
}

/**
 * The business at a glance for the console's dashboard. Everything here is read from the
 * database as it is now (money from the payment ledger and the orders' payment columns); what
 * is not tracked yet is listed in `unavailable` instead of being guessed.
 */
export class DashboardService {
  async summary() {
    const now = DateTime.now()
    const since = now.minus({ days: DAYS - 1 }).startOf('day')

    const [
      upcoming,
      recent,
      byStatus,
      byDay,
      feesBooked,
      customers,
      subscribers,
      products,
      emailsFailed,
      moved,
      open,
      lastRun,
      coverage,
      renewals,
      openIncidents,
    ] = await Promise.all([
      upcomingReleasesQuery(now),
      recentReleasesQuery(now),
      db.from('orders').select('status').count('* as total').groupBy('status'),
      db
        .from('orders')
        .select(db.raw('substr(created_at, 1, 10) as day'))
        .select('status')
        .count('* as total')
        .where('created_at', '>=', sqlDateTime(since))
        .groupByRaw('substr(created_at, 1, 10), status'),
      db.from('orders').where('status', 'success').sum('price_cents as cents'),
      total(userQueries.query().where('role', 'customer')),
      total(newsletterAdmin.query().whereNull('unsubscribed_at')),
      total(productQueries.query()),
      total(emailAdmin.query().where('status', 'failed')),
      paymentService.totals(),
      orderQueries.openMoney(),
      releaseRunner.lastRun(),
      holdCoverage(),
      holdRenewals(),
      incidents.open(),
    ])
    const mail = await mailStatus.summary()

    const ordersByStatus = countOrdersByStatus(byStatus)
    const releaseCounts = await this.statusCountsFor(recent.map((product) => product.id))

    return {
      generatedAt: now.toISO(),
      upcoming: upcoming.map((product) => ({
        ...presentAdminProduct(product),
        fill: stockFill(product),
      })),
      recentReleases: recent.map((product) => ({
        ...presentAdminProduct(product),
        fill: stockFill(product),
        orders: releaseCounts.get(product.id) ?? {},
      })),
      ordersByStatus,
      activeOrders: ACTIVE_STATUSES.reduce((sum, status) => sum + (ordersByStatus[status] ?? 0), 0),
      ordersByDay: countOrdersByDay(since, byDay),
      fees: presentFees(Number(feesBooked[0]?.cents ?? 0), moved, open),
      /**
       * The $1.00 card checks of waiting orders (pending, draw entries): how many have no live
       * hold now, how many lapse within 24 h, and the renewals that kept them live.
       */
      holds: {
        waitingOrders: coverage.waitingOrders,
        waitingWithoutLiveHold: coverage.waitingWithoutLiveHold,
        withoutLiveHoldByStatus: coverage.withoutLiveHoldByStatus,
        expiringWithin24h: coverage.holdsExpiringWithin24h,
        renewals,
      },
      totals: { customers, subscribers, products, emailsFailed },
      /** The latest real release run (dry runs are left out), or null before the first. */
      lastReleaseRun: lastRun,
      /** Alert incidents open now, oldest first: shown at the top of the dashboard. */
      openIncidents: openIncidents.map(presentIncident),
      /** Where outgoing e-mail goes: SMTP, or the console's mailbox (its notice and link). */
      outgoingMail: emailAdmin.outgoing(),
      /** The retailers' e-mail: doors unreadable for 5 minutes and messages waiting in review. */
      mailIntake: presentMailIntake(mail),
      unavailable: {} as Record<string, string>,
    }
  }

  private async statusCountsFor(productIds: number[]) {
    const counts = new Map<number, Record<string, number>>()
    if (productIds.length === 0) return counts
    const rows = await orderQueries
      .query()
      .select('product_id', 'status')
      .count('* as total')
      .whereIn('product_id', productIds)
      .groupBy('product_id', 'status')
    for (const row of rows) {
      const entry = counts.get(row.productId) ?? {}
      entry[row.status] = Number(row.$extras.total)
      counts.set(row.productId, entry)
    }
    return counts
  }
}

export const dashboard = new DashboardService()
