import type { DateTime } from 'luxon'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import ProductRetailer from '#catalog/models/product_retailer'
import Product from '#catalog/models/product'
import { retailerName } from '#shared/vocabulary'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'

/*
| The retailers a product releases at, in order (`product_retailers`). The first is the
| product's `retailer`: both are written in one transaction by `productAdminService`, so they
| never disagree. A product written outside it (before the list existed, a test factory) has no
| rows: its `retailer` alone stands for the list.
*/

/** One retailer of a product: null release time is the product's own, null price not known. */
export type RetailerEntry = Readonly<{
  retailer: string
  releaseAt: DateTime | null
  priceCents: number | null
  url: string | null
}>

/** A retailer as the console and `products:import` send it (validated). */
export type RetailerInput = {
  retailer: string
  releaseAt?: DateTime | null
  priceCents?: number | null
  url?: string | null
}

/** A product as read with its rows (preloaded), or without them. */
export type WithRetailers = {
  readonly retailer: string | null
  readonly retailers?: readonly (RetailerEntry & { position: number })[]
}

function entryOf(input: RetailerInput): RetailerEntry {
  return {
    retailer: input.retailer,
    releaseAt: input.releaseAt ?? null,
    priceCents: input.priceCents ?? null,
    url: input.url ?? null,
  }
}

/** The product's list: its rows in order, else the one its `retailer` names. */
export function retailersOf(product: WithRetailers): RetailerEntry[] {
  if (product.retailers?.length) {
    return [...product.retailers].sort((a, b) => a.position - b.position).map(entryOf)
  }
  return product.retailer ? [entryOf({ retailer: product.retailer })] : []
}

/**
 * The list after a create or an edit; undefined when it does not change. A sent `retailers`
 * is the list (`retailer` is then ignored). A client that sends only `retailer` (written before
 * the list) names the first: one already listed moves first, another replaces the first (its
 * price, time and URL were the old retailer's); null empties the list.
 */
export function retailersAfter(
  current: readonly RetailerEntry[],
  sent: { retailers?: readonly RetailerInput[]; retailer?: string | null }
): RetailerEntry[] | undefined {
  if (sent.retailers !== undefined) return sent.retailers.map(entryOf)
  if (sent.retailer === undefined) return undefined
  if (sent.retailer === null) return []
  const listed = current.find((entry) => entry.retailer === sent.retailer)
  if (listed) return [listed, ...current.filter((entry) => entry !== listed)]
  return [entryOf({ retailer: sent.retailer }), ...current.slice(1)]
}

/** The public product's retailers: display name, and the release time that applies. */
export function presentRetailers(
  list: readonly RetailerEntry[],
  productReleaseAt: DateTime | null
) {
  return list.map((entry) => ({
    retailer: entry.retailer,
    name: retailerName(entry.retailer),
    releaseAt: (entry.releaseAt ?? productReleaseAt)?.toISO() ?? null,
    priceCents: entry.priceCents,
    url: entry.url,
  }))
}

/** The console's retailers, as its form sends them back: a null time is the product's. */
export function presentStoredRetailers(list: readonly RetailerEntry[]) {
  return list.map((entry) => ({
    retailer: entry.retailer,
    name: retailerName(entry.retailer),
    releaseAt: entry.releaseAt?.toISO() ?? null,
    priceCents: entry.priceCents,
    url: entry.url,
  }))
}

class ProductRetailers {
  /** A product's list as stored now, by its id alone (empty when there is no such product). */
  async listFor(productId: number): Promise<RetailerEntry[]> {
    // An id a request made up (NaN, out of range) names no product: never a query.
    if (!Number.isSafeInteger(productId) || productId < 1 || productId > 2 ** 31 - 1) return []
    const product = await Product.find(productId)
    return product ? this.listOf(product) : []
  }

  /** A product's list as stored now. */
  async listOf(product: { id: number; retailer: string | null }): Promise<RetailerEntry[]> {
    const rows = await ProductRetailer.query().where('product_id', product.id)
    return retailersOf({ retailer: product.retailer, retailers: rows })
  }

  /**
   * Writes the list inside the caller's transaction (with the product's `retailer`). A retailer
   * kept keeps its row (and id), so what later refers to it stays attached.
   */
  async replace(productId: number, list: readonly RetailerEntry[], trx: TransactionClientContract) {
    const rows = await ProductRetailer.query({ client: trx }).where('product_id', productId)
    const kept = new Set(list.map((entry) => entry.retailer))
    const gone = rows.filter((row) => !kept.has(row.retailer)).map((row) => row.id)
    if (gone.length) await ProductRetailer.query({ client: trx }).whereIn('id', gone).delete()
    for (const [position, entry] of list.entries()) {
      const row = rows.find((candidate) => candidate.retailer === entry.retailer)
      const next = row ?? new ProductRetailer()
      next.useTransaction(trx)
      next.merge({ productId, position, ...entry })
      try {
        await next.save()
      } catch (error) {
        // Another edit added the same retailer a moment ago (the unique index decided).
        if (!isUniqueViolation(error)) throw error
        throw AppError.conflict(
          'The retailers of this product were changed at the same moment: reload and try again.',
          'retailers_changed'
        )
      }
    }
  }
}

export const productRetailers = new ProductRetailers()
