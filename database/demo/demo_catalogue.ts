import { DateTime } from 'luxon'
import Product from '#catalog/models/product'
import { CLOTHING_SIZES, ONE_SIZE, SHOE_SIZES } from '#catalog/services/catalog_service'

/*
| The demo shop's catalogue, kept apart from the demo seed, which makes it first (before its
| releases, draws and orders).
*/

type DemoProduct = {
  slug: string
  title: string
  priceCents: number
  sizeType: 'shoe' | 'clothing' | 'OS'
  sizes: string[]
  styles: string
  tags: string
  /** Who sells it (the mail intake's retailers). */
  retailer: string
  totalStock: number
  stockTaken: number
  releaseInHours: number
  description: string
}

const hours = (value: number) => value

/** Realistic demo catalogue: released and upcoming drops across the four brand tags. */
export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    // The spec's fallback sample product.
    slug: 'dropslot-sample-tee',
    retailer: 'kith',
    title: 'Dropslot Sample Tee',
    priceCents: 5000,
    sizeType: 'clothing',
    sizes: ['XS', 'S', 'M', 'L', 'XL'],
    styles: 'Black,White',
    tags: 'adidas',
    totalStock: 500,
    stockTaken: 7,
    releaseInHours: hours(24 * 6),
    description: 'Heavyweight cotton tee from the adidas archive capsule.',
  },
  {
    slug: 'adidas-samba-og-cloud-white',
    retailer: 'adidas',
    title: "adidas Samba OG 'Cloud White'",
    priceCents: 2500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Cloud White / Core Black',
    tags: 'adidas',
    totalStock: 300,
    stockTaken: 41,
    releaseInHours: hours(24 * 3),
    description: 'The terrace classic in its original colourway. Limited pairs per store.',
  },
  {
    slug: 'nike-air-jordan-1-high-og-chicago',
    retailer: 'nike',
    title: "Air Jordan 1 Retro High OG 'Chicago'",
    priceCents: 4500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Varsity Red / White / Black',
    tags: 'nike',
    totalStock: 200,
    stockTaken: 188,
    releaseInHours: hours(30),
    description: 'The most requested colourway returns on SNKRS. Expect an instant sell-out.',
  },
  {
    slug: 'nike-sb-dunk-low-pro-chocolate',
    retailer: 'nike',
    title: "Nike SB Dunk Low Pro 'Chocolate'",
    priceCents: 3000,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Chocolate / Sail',
    tags: 'nike',
    totalStock: 150,
    stockTaken: 150,
    releaseInHours: hours(-48),
    description: 'Released two days ago. Results are in.',
  },
  {
    slug: 'kith-box-logo-hoodie-nocturnal',
    retailer: 'kith',
    title: "Kith Box Logo Hoodie 'Nocturnal'",
    priceCents: 2000,
    sizeType: 'clothing',
    sizes: CLOTHING_SIZES,
    styles: 'Nocturnal,Sandrift',
    tags: 'kith',
    totalStock: 250,
    stockTaken: 12,
    releaseInHours: hours(24 * 8),
    description: 'Monday Program drop. Two colourways, every size.',
  },
  {
    slug: 'kith-new-balance-990v6-daytona',
    retailer: 'kith',
    title: "Kith x New Balance 990v6 'Daytona'",
    priceCents: 3500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Daytona Blue',
    tags: 'kith',
    totalStock: 120,
    stockTaken: 0,
    releaseInHours: hours(24 * 12),
    description: 'Made in USA collaboration, raffle only at Kith flagships and online.',
  },
  {
    slug: 'palace-tri-ferg-cap',
    retailer: 'palace',
    title: 'Palace Tri-Ferg 6-Panel Cap',
    priceCents: 1500,
    sizeType: 'OS',
    sizes: ONE_SIZE,
    styles: 'OS',
    tags: 'shopify',
    totalStock: 400,
    stockTaken: 55,
    releaseInHours: hours(24 * 2),
    description: 'Thursday drop on a Shopify storefront: queue-protected, fast checkout.',
  },
  {
    slug: 'union-jordan-4-off-noir',
    retailer: 'union',
    title: "Union LA x Air Jordan 4 'Off Noir'",
    priceCents: 5500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Off Noir / Brigade Blue',
    tags: 'shopify,nike',
    totalStock: 80,
    stockTaken: 9,
    releaseInHours: hours(24 * 5),
    description: 'Boutique release through a Shopify checkout; tiny allocation.',
  },
]

/** Idempotent: each product is made once, its release time counted from when it is made. */
export async function seedDemoCatalogue() {
  for (const item of DEMO_PRODUCTS) {
    await Product.firstOrCreate(
      { slug: item.slug },
      {
        title: item.title,
        image: `/images/products/${item.slug}.svg`,
        description: item.description,
        priceCents: item.priceCents,
        sizeType: item.sizeType,
        sizes: item.sizes,
        styles: item.styles,
        tags: item.tags,
        retailer: item.retailer,
        avail: true,
        totalStock: item.totalStock,
        stockTaken: item.stockTaken,
        releaseAt: DateTime.now().plus({ hours: item.releaseInHours }).startOf('minute'),
      }
    )
  }
}
