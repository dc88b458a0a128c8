import type { DateTime } from 'luxon'
import Product from '#catalog/models/product'
import { sqlTime } from '#core/helpers/sql_time'
import type { ModelAttributes, ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { ReleaseMode, SizeType } from '#shared/vocabulary'

export { splitList } from '#catalog/models/product'

/** A product's columns, as the console's lists page them (everything the console edits). */
export type ProductColumns = Readonly<ModelAttributes<Product>>

/**
 * A product as other modules read it: plain, frozen data (no model to save), with whether its
 * release time has come.
 */
export type ProductRecord = Readonly<{
  id: number
  slug: string
  title: string
  image: string
  /**
   * Who sells the release: the product's own retailer (the console, `products:import`, the demo
   * seed), else its first brand tag stands for it. This is the one place that decides it (the
   * public outcome report's rates per retailer, the mail intake's signed senders).
   */
  retailer: string
  priceCents: number
  sizeType: SizeType
  sizes: readonly string[]
  avail: boolean
  totalStock: number
  stockTaken: number
  releaseAt: DateTime | null
  /** Until when release day keeps trying for restocks after the drop; null: no window. */
  restockUntil: DateTime | null
  releaseTimeZone: string
  releaseMode: ReleaseMode
  entryOpensAt: DateTime | null
  entryClosesAt: DateTime | null
  queueOpensAt: DateTime | null
  queueMinutes: number | null
  queueRatePerMinute: number | null
  isReleased: boolean
}>

function toRecord(product: Product): ProductRecord {
  return Object.freeze({
    id: product.id,
    slug: product.slug,
    title: product.title,
    image: product.image,
    retailer: product.retailer ?? product.tagList[0] ?? 'other',
    priceCents: product.priceCents,
    sizeType: product.sizeType,
    sizes: Object.freeze([...(product.sizes ?? [])]),
    avail: product.avail,
    totalStock: product.totalStock,
    stockTaken: product.stockTaken,
    releaseAt: product.releaseAt,
    restockUntil: product.restockUntil,
    releaseTimeZone: product.releaseTimeZone,
    releaseMode: product.releaseMode,
    entryOpensAt: product.entryOpensAt,
    entryClosesAt: product.entryClosesAt,
    queueOpensAt: product.queueOpensAt,
    queueMinutes: product.queueMinutes,
    queueRatePerMinute: product.queueRatePerMinute,
    isReleased: product.isReleased,
  })
}

/** Products as other modules read them (release day, draws, results), without reaching the model. */
export const productQueries = {
  /** The console's lists (filtered, sorted and paged by the REST list helper). */
  query: () => Product.query(),

  /** Has a products query load each product's retailers (`presentProduct` shows them). */
  withRetailers(query: ModelQueryBuilderContract<any, any>) {
    const products: ModelQueryBuilderContract<typeof Product> = query
    products.preload('retailers')
  },

  async find(id: number): Promise<ProductRecord | null> {
    const product = await Product.find(id)
    return product ? toRecord(product) : null
  },

  async findBySlug(slug: string): Promise<ProductRecord | null> {
    const product = await Product.findBy('slug', slug)
    return product ? toRecord(product) : null
  },

  /** Products released between `since` and now, latest first (the public release reports). */
  async releasedBetween(since: DateTime, limit = 200): Promise<ProductRecord[]> {
    const products = await Product.query()
      .whereNotNull('release_at')
      .where('release_at', '>=', sqlTime(since))
      .where('release_at', '<=', sqlTime())
      .orderBy('release_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
    return products.map(toRecord)
  },

  /** Released and available, soonest first: a product made unavailable pauses its release. */
  async dueForRelease(): Promise<ProductRecord[]> {
    const products = await Product.query()
      .where('avail', true)
      .whereNotNull('release_at')
      .where('release_at', '<=', sqlTime())
      .orderBy('release_at', 'asc')
    return products.map(toRecord)
  },
}
