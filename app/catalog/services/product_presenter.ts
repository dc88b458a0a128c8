import type { ProductColumns } from '#catalog/services/product_queries'

/** The spec's Product, camelCase; price in dollars as the storefront shows it. */
export function presentProduct(product: ProductColumns) {
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
