import type { ProductColumns } from '#catalog/services/product_queries'
import {
  presentRetailers,
  retailersOf,
  type WithRetailers,
} from '#catalog/services/product_retailers'

/**
 * The spec's Product, camelCase; price in dollars as the storefront shows it (the service fee),
 * and the retailers where a slot is tried, each with its own time and retail price.
 */
export function presentProduct(product: ProductColumns & WithRetailers) {
  return {
    productId: product.id,
    slug: product.slug,
    productTitle: product.title,
    productImage: product.image,
    description: product.description,
    price: product.priceCents / 100,
    priceCents: product.priceCents,
    sizeType: product.sizeType,
    styles: product.styles,
    tags: product.tags,
    sizes: product.sizes,
    avail: product.avail,
    totalStock: product.totalStock,
    stockTaken: product.stockTaken,
    releaseAt: product.releaseAt?.toISO() ?? null,
    restockUntil: product.restockUntil?.toISO() ?? null,
    retailers: presentRetailers(retailersOf(product), product.releaseAt),
    releaseTimeZone: product.releaseTimeZone ?? 'America/New_York',
    mode: product.releaseMode ?? 'first-come',
    entryOpensAt: product.entryOpensAt?.toISO() ?? null,
    entryClosesAt: product.entryClosesAt?.toISO() ?? null,
    queue:
      product.queueMinutes && product.queueOpensAt
        ? {
            opensAt: product.queueOpensAt.toISO(),
            minutes: product.queueMinutes,
            letThroughPerMinute: product.queueRatePerMinute ?? 60,
          }
        : null,
  }
}
