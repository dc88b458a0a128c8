import type { Product } from '@shared/api/contract'

/**
 * The built-in default list the spec falls back to when the catalogue cannot be loaded or is
 * empty; the first one is the spec's sample product (price 50, XS to XL, 500 in stock, 7 taken).
 * They link to the shop, never to a product page that does not exist.
 */
const base = {
  slug: '',
  description: null,
  avail: true,
  releaseAt: null,
  restockUntil: null,
  releaseTimeZone: 'America/New_York',
  retailers: [],
  mode: 'first-come' as const,
  entryOpensAt: null,
  entryClosesAt: null,
  queue: null,
}

export const FALLBACK_PRODUCTS: Product[] = [
  {
    ...base,
    productId: 0,
    productTitle: 'Dropslot Sample Tee',
    productImage: '/images/products/fallback.svg',
    price: 50,
    priceCents: 5000,
    sizeType: 'clothing',
    styles: 'OS',
    tags: 'adidas',
    sizes: ['XS', 'S', 'M', 'L', 'XL'],
    totalStock: 500,
    stockTaken: 7,
  },
  {
    ...base,
    productId: 0,
    productTitle: 'Release-day sneakers',
    productImage: '/images/products/adidas-samba-og-cloud-white.svg',
    price: 25,
    priceCents: 2500,
    sizeType: 'shoe',
    styles: 'OS',
    tags: 'adidas',
    sizes: [],
    totalStock: 500,
    stockTaken: 0,
  },
  {
    ...base,
    productId: 0,
    productTitle: 'Boutique streetwear',
    productImage: '/images/products/kith-box-logo-hoodie-nocturnal.svg',
    price: 20,
    priceCents: 2000,
    sizeType: 'clothing',
    styles: 'OS',
    tags: 'kith',
    sizes: [],
    totalStock: 500,
    stockTaken: 0,
  },
]

export const FALLBACK_IMAGE = '/images/products/fallback.svg'
