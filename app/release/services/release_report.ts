import { restockOpen } from '#release/services/task_plan'
import { retailerName } from '#shared/vocabulary'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { productQueries, type ProductRecord } from '#catalog/services/product_queries'
import {
  reportOrderQueries,
  type OutcomeCounts,
  type ReportOrderRow,
  type ReportOutcome,
} from '#orders/services/order_queries'
import { orderNumber } from '#orders/services/order_numbers'
import { ledger, type MoneyRow } from '#payments/services/ledger'
import { reconciliationService, type Reconciliation } from '#payments/services/reconciliation'
import { AppError } from '#core/exceptions/app_error'
import { FAILURE_CODES } from '#orders/services/failure_reasons'
import { clock } from '#core/services/clock'
import { notSecuredWords } from '#shared/vocabulary'

/** How far back the per-retailer rates of the releases page look. */
const RETAILER_WINDOW_DAYS = 90
/** How long a published report is served from memory before it is built again. */
const PUBLISHED_FOR_MS = 30_000

export type ReportCheck = { name: string; ok: boolean; detail: string }

type Failed = {
  total: number
  soldOut: number
  declined: number
  address: number
  /** Never sent: every retailer the buyer accepted was above their price cap. */
  aboveCap: number
  other: number
}

type Figures = {
  orders: number
  submitted: number
  succeeded: number
  failed: Failed
  cancelledAfterSuccess: number
  successRate: number | null
}

export type ReleaseReport = {
  product: {
    id: number
    title: string
    image: string
    releaseAt: string | null
    releaseMode: string
    retailer: string
    /** The end of the restock window: the release is not settled before it. */
    restockUntil: string | null
  }
  /** No order waits for release day or a result any more. */
  settled: boolean
  /** Orders still waiting for release day or a result (0 once settled). */
  open: number
  slots: number
  /** A draw: its entries, and how many were selected for release day. */
  draw: { entries: number; selected: number } | null
  /** Orders never handed to the retailer: card check declined, not selected, cancelled. */
  notSubmitted: number
  bySize: (Figures & { size: string })[]
  /** The orders won, by the retailer and the size they were won at (a ladder's size may differ). */
  wins: {
    byRetailer: { retailer: string; name: string; won: number }[]
    bySize: { size: string; won: number }[]
  }
  fees: { chargedCents: number; refundedCents: number; netCents: number; dueCents: number }
  checks: ReportCheck[]
  /**
   * One line per order, in no order of time; `mine` on the viewer's own. `words`: a failed
   * order's, as its buyer reads them on the orders page (nothing was charged).
   */
  lines: {
    size: string
    outcome: ReportOutcome
    reason: string | null
    words: string | null
    mine: boolean
  }[]
  generatedAt: string
} & Figures

export type ConsoleReleaseReport = ReleaseReport & {
  /** Order numbers by line, for the console only (never public). */
  orderNumbers: string[]
  reconciliation: Reconciliation
}

const rate = (succeeded: number, submitted: number) =>
  submitted > 0 ? Math.round((succeeded / submitted) * 10_000) / 10_000 : null

function figuresOf(rows: ReportOrderRow[], submitted: number): Figures {
  const count = (outcome: ReportOutcome) => rows.filter((row) => row.outcome === outcome).length
  const failedRows = rows.filter((row) => row.outcome === 'failed')
  const byCode = (code: string) => failedRows.filter((row) => row.failCode === code).length
  const succeeded = count('succeeded')
  return {
    orders: rows.length,
    submitted,
    succeeded,
    failed: {
      total: failedRows.length,
      soldOut: byCode('sold_out'),
      declined: byCode('declined'),
      address: byCode('address'),
      aboveCap: byCode('price_cap'),
      other: failedRows.filter(
        (row) =>
          !(FAILURE_CODES as readonly string[]).includes(row.failCode ?? '') ||
          row.failCode === 'other'
      ).length,
    },
    cancelledAfterSuccess: count('cancelled_after_success'),
    successRate: rate(succeeded, submitted),
  }
}

/** Sizes as the shop lists them: numbers in order, then letters in the order given. */
function sizeOrder(a: string, b: string) {
  const [x, y] = [Number(a), Number(b)]
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y
  if (Number.isFinite(x)) return -1
  if (Number.isFinite(y)) return 1
  const letters = ['XS', 'S', 'M', 'L', 'XL', 'OS']
  return letters.indexOf(a.toUpperCase()) - letters.indexOf(b.toUpperCase())
}

const OUTCOME_ORDER: ReportOutcome[] = [
  'succeeded',
  'cancelled_after_success',
  'failed',
  'not_submitted',
  'open',
]

/**
 * The public outcome report of a release (docs/operations.md): once no order of a released
 * product waits for release day or a result, its figures are published (no personal data) and
 * checked when built: succeeded ≤ submitted ≤ orders, and the fees charged (the ledger's charges
 * less its refunds) equal the sum of the succeeded orders' fees not refunded. A report whose
 * checks fail is withheld, never published half-right. The console's version adds the
 * reconciliation of the ledger against the gateway's own records.
 */
export class ReleaseReports {
  private published = new Map<
    number,
    { report: ReleaseReport; lineUserIds: number[]; until: number }
  >()

  /** GET /api/releases/:productId/report (and the storefront's page). */
  async publicReport(productId: number, viewerUserId: number | null = null) {
    const cached = this.published.get(productId)
    if (cached && cached.until > clock.nowMs()) return this.forViewer(cached, viewerUserId)
    const product = await this.releasedProduct(productId)
    const { report, lineUserIds } = await this.build(product, null)
    if (!report.settled) {
      throw AppError.notFound(
        'The report of this release is published once every order has its result.',
        'report_not_ready'
      )
    }
    const failing = report.checks.filter((check) => !check.ok)
    if (failing.length > 0) {
      logger.error({ product: productId, failing }, 'release report withheld: its checks failed')
      throw AppError.conflict(
        'The figures of this release do not add up yet; its report is withheld until they do.',
        'report_inconsistent'
      )
    }
    // A settled report changes rarely (a late refund): read again at most every 30 s, however
    // many visitors open it after a big release.
    const entry = { report, lineUserIds, until: clock.nowMs() + PUBLISHED_FOR_MS }
    if (this.published.size >= 200) this.published.clear()
    this.published.set(productId, entry)
    return this.forViewer(entry, viewerUserId)
  }

  /** The report with the viewer's own lines marked (and nobody's when signed out). */
  private forViewer(
    entry: { report: ReleaseReport; lineUserIds: number[] },
    viewer: number | null
  ) {
    if (viewer === null) return entry.report
    return {
      ...entry.report,
      lines: entry.report.lines.map((line, index) => {
        const mine = entry.lineUserIds[index] === viewer
        return { ...line, mine, words: lineWords(line.outcome, line.reason, mine) }
      }),
    }
  }

  /** Forgets the reports kept (tests that change a settled release's figures). */
  forget() {
    this.published.clear()
  }

  /** The console's and the CLI's version: open or settled, with the reconciliation. */
  async consoleReport(productId: number): Promise<ConsoleReleaseReport> {
    const product = await productQueries.find(productId)
    if (!product) throw AppError.notFound(`Product ${productId} not found.`, 'product_not_found')
    const { report, rows, lineOrderIds } = await this.build(product, null)
    const first = rows.reduce<Date | null>(
      (earliest, row) => (!earliest || row.createdAt < earliest ? row.createdAt : earliest),
      null
    )
    const since = first ?? product.releaseAt?.toJSDate() ?? new Date()
    const reconciliation = await reconciliationService.reconcile(
      rows.map((row) => ({ id: row.id, publicId: row.publicId, number: orderNumber(row.id) })),
      // A day of margin: the gateway's clock and ours need not agree to the second.
      new Date(since.getTime() - 24 * 3600 * 1000)
    )
    return { ...report, orderNumbers: lineOrderIds.map(orderNumber), reconciliation }
  }

  /**
   * GET /api/releases: settled releases of the last 90 days (latest first) with their success
   * rate, and the rate of each retailer over them.
   */
  async releases() {
    const now = DateTime.now()
    const products = await productQueries.releasedBetween(now.minus({ days: RETAILER_WINDOW_DAYS }))
    const counts = await reportOrderQueries.outcomeCounts(products.map((product) => product.id))
    const submitted = await this.submittedCounts(products.map((product) => product.id))
    const releases = products
      .map((product) => ({ product, counts: counts.get(product.id) }))
      .filter(
        (item): item is { product: ProductRecord; counts: OutcomeCounts } =>
          item.counts !== undefined &&
          item.counts.orders > 0 &&
          item.counts.open === 0 &&
          !restockOpen(item.product)
      )
      .map(({ product, counts: figures }) => {
        const handedOver = submitted.get(product.id) ?? 0
        return {
          productId: product.id,
          title: product.title,
          image: product.image,
          releaseAt: product.releaseAt?.toISO() ?? null,
          releaseMode: product.releaseMode,
          retailer: product.retailer,
          orders: figures.orders,
          submitted: handedOver,
          succeeded: figures.succeeded,
          successRate: rate(figures.succeeded, handedOver),
        }
      })
    const retailers = new Map<string, { releases: number; submitted: number; succeeded: number }>()
    for (const release of releases) {
      const entry = retailers.get(release.retailer) ?? { releases: 0, submitted: 0, succeeded: 0 }
      entry.releases += 1
      entry.submitted += release.submitted
      entry.succeeded += release.succeeded
      retailers.set(release.retailer, entry)
    }
    return {
      windowDays: RETAILER_WINDOW_DAYS,
      releases,
      retailers: [...retailers.entries()]
        .map(([retailer, entry]) => ({
          retailer,
          ...entry,
          successRate: rate(entry.succeeded, entry.submitted),
        }))
        .sort((a, b) => b.submitted - a.submitted || a.retailer.localeCompare(b.retailer)),
      generatedAt: now.toISO(),
    }
  }

  private async releasedProduct(productId: number) {
    const product = await productQueries.find(productId)
    if (!product || !product.isReleased) {
      throw AppError.notFound('There is no report for this product.', 'report_not_found')
    }
    return product
  }

  /** Orders handed to the retailer (or given a result) per product, from the release tasks. */
  private async submittedCounts(productIds: number[]) {
    const result = new Map<number, number>()
    if (productIds.length === 0) return result
    const rows = await db
      .from('release_tasks')
      .whereIn('product_id', productIds)
      .where((query) => query.whereNotNull('submitted_at').orWhereNotNull('outcome'))
      .select('product_id')
      .count('* as total')
      .groupBy('product_id')
    for (const row of rows) result.set(Number(row.product_id), Number(row.total))
    return result
  }

  private async build(product: ProductRecord, viewerUserId: number | null) {
    const rows = await reportOrderQueries.rowsOf(product.id)
    const handedOver = await this.handedOverOrders(product.id)
    const money = await ledger.moneyRowsFor(rows.map((row) => row.id))

    const totals = figuresOf(rows, handedOver.size)
    const fees = feesOf(rows, money)
    const open = rows.filter((row) => row.outcome === 'open').length
    // Lines in no order of time (by size, then outcome), so nothing says who bought first.
    const ordered = [...rows].sort(
      (a, b) =>
        sizeOrder(a.size, b.size) ||
        OUTCOME_ORDER.indexOf(a.outcome) - OUTCOME_ORDER.indexOf(b.outcome) ||
        a.id - b.id
    )
    const report: ReleaseReport = {
      product: productSummary(product),
      // Settled once no order waits and the restock window (if any) has closed.
      settled: open === 0 && !restockOpen(product),
      open,
      slots: product.totalStock,
      draw:
        product.releaseMode === 'draw'
          ? { entries: rows.length, selected: rows.filter((row) => !row.notSelected).length }
          : null,
      ...totals,
      notSubmitted: rows.filter((row) => row.outcome === 'not_submitted').length,
      bySize: figuresBySize(rows, handedOver),
      wins: winsOf(rows, product.retailer),
      fees: {
        chargedCents: fees.charged,
        refundedCents: fees.refunded,
        netCents: fees.charged - fees.refunded,
        dueCents: fees.dueCents,
      },
      checks: checksOf(totals, fees),
      lines: ordered.map((row) => lineOf(row, viewerUserId)),
      generatedAt: DateTime.now().toISO()!,
    }
    return {
      report,
      rows,
      lineOrderIds: ordered.map((row) => row.id),
      lineUserIds: ordered.map((row) => row.userId),
    }
  }

  /** The ids of the product's orders handed to the retailer (or given a result). */
  private async handedOverOrders(productId: number) {
    const tasks = await db
      .from('release_tasks')
      .where('product_id', productId)
      .where((query) => query.whereNotNull('submitted_at').orWhereNotNull('outcome'))
      .select('order_id')
    return new Set(tasks.map((task) => Number(task.order_id)))
  }
}

function productSummary(product: ProductRecord): ReleaseReport['product'] {
  return {
    id: product.id,
    title: product.title,
    image: product.image,
    releaseAt: product.releaseAt?.toISO() ?? null,
    releaseMode: product.releaseMode,
    retailer: product.retailer,
    restockUntil: product.restockUntil?.toISO() ?? null,
  }
}

function figuresBySize(rows: ReportOrderRow[], handedOver: Set<number>) {
  const sizes = [...new Set(rows.map((row) => row.size))].sort(sizeOrder)
  return sizes.map((size) => {
    const ofSize = rows.filter((row) => row.size === size)
    return {
      size,
      ...figuresOf(ofSize, ofSize.filter((row) => handedOver.has(row.id)).length),
    }
  })
}

/** The orders won, by retailer (the product's when the row names none) and by the size won. */
function winsOf(rows: ReportOrderRow[], productRetailer: string): ReleaseReport['wins'] {
  const won = rows.filter((row) => row.outcome === 'succeeded')
  const tally = (keys: string[]) => {
    const counts = new Map<string, number>()
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
    return counts
  }
  const byRetailer = tally(won.map((row) => row.securedRetailer ?? productRetailer))
  const byWonSize = tally(won.map((row) => row.securedSize ?? row.size))
  return {
    byRetailer: [...byRetailer].map(([retailer, count]) => ({
      retailer,
      name: retailerName(retailer),
      won: count,
    })),
    bySize: [...byWonSize.keys()]
      .sort(sizeOrder)
      .map((size) => ({ size, won: byWonSize.get(size)! })),
  }
}

type FeeSums = { charged: number; refunded: number; keptBySucceeded: number; dueCents: number }

/** The ledger's fees and refunds, and what the succeeded orders say they should be. */
function feesOf(rows: ReportOrderRow[], money: MoneyRow[]): FeeSums {
  const charged = money
    .filter((row) => row.kind === 'fee')
    .reduce((sum, row) => sum + row.amountCents, 0)
  const refunded = money
    .filter((row) => row.kind === 'refund')
    .reduce((sum, row) => sum + row.amountCents, 0)
  const keptBySucceeded = rows
    .filter(
      (row) =>
        row.outcome === 'succeeded' && (row.feeStatus === 'paid' || row.feeStatus === 'refunded')
    )
    .reduce((sum, row) => sum + row.priceCents - row.refundedCents, 0)
  const dueCents = rows
    .filter(
      (row) =>
        row.outcome === 'succeeded' &&
        (row.feeStatus === 'failed' || row.feeStatus === 'requires_action')
    )
    .reduce((sum, row) => sum + row.priceCents, 0)
  return { charged, refunded, keptBySucceeded, dueCents }
}

function checksOf(totals: Figures, fees: FeeSums): ReportCheck[] {
  const { charged, refunded, keptBySucceeded } = fees
  return [
    {
      name: 'succeeded ≤ submitted ≤ orders',
      ok: totals.succeeded <= totals.submitted && totals.submitted <= totals.orders,
      detail: `${totals.succeeded} ≤ ${totals.submitted} ≤ ${totals.orders}`,
    },
    {
      name: 'fees charged = the succeeded orders’ fees not refunded',
      ok: charged - refunded === keptBySucceeded,
      detail:
        `ledger: ${dollars(charged)} charged − ${dollars(refunded)} refunded = ` +
        `${dollars(charged - refunded)}; succeeded orders: ${dollars(keptBySucceeded)}`,
    },
  ]
}

function lineOf(row: ReportOrderRow, viewerUserId: number | null): ReleaseReport['lines'][number] {
  const reason = row.outcome === 'failed' ? row.failCode : row.notSelected ? 'not_selected' : null
  const mine = viewerUserId !== null && row.userId === viewerUserId
  return {
    size: row.size,
    outcome: row.outcome,
    reason,
    words: lineWords(row.outcome, reason, mine),
    mine,
  }
}

/** A failed line in its buyer's words ("your" on the viewer's own, "the" on the others'). */
function lineWords(outcome: ReportOutcome, reason: string | null, mine: boolean) {
  return outcome === 'failed' ? notSecuredWords(reason, { whose: mine ? 'your' : 'the' }) : null
}

function dollars(value: number) {
  return `$${(value / 100).toFixed(2)}`
}

export const releaseReports = new ReleaseReports()
