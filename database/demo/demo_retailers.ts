import Product from '#catalog/models/product'
import { productAdminService } from '#catalog/services/product_admin_service'
import { productRetailers } from '#catalog/services/product_retailers'

/*
| Demo products released at more than one retailer, each at its own retail price (shipping
| included) and, when it differs, its own time: the Kith x New Balance collaboration at Kith,
| then a day later at New Balance, with a restock window: restocks are tried for 6 hours after its
| release. Kept apart from the demo seed, which calls it.
*/
export const DEMO_RETAILERS: Record<
  string,
  { retailer: string; priceCents: number; url: string; hoursAfterRelease?: number }[]
> = {
  'kith-new-balance-990v6-daytona': [
    {
      retailer: 'kith',
      priceCents: 23500,
      url: 'https://kith.com/products/kith-new-balance-990v6-daytona',
    },
    {
      retailer: 'newbalance',
      priceCents: 21999,
      url: 'https://www.newbalance.com/pd/kith-990v6-daytona/U990KD6.html',
      hoursAfterRelease: 24,
    },
  ],
}

/**
 * Demo restock windows: hours after the product's release time (the collaboration's: six hours
 * past New Balance's own drop, a day after Kith's).
 */
export const DEMO_RESTOCK_HOURS: Record<string, number> = {
  'kith-new-balance-990v6-daytona': 30,
}

/** Idempotent: each list and window is written once (to a product seeded before either existed). */
export async function seedDemoRetailers() {
  for (const [slug, list] of Object.entries(DEMO_RETAILERS)) {
    const product = await Product.findBy('slug', slug)
    const current = product ? await productRetailers.listOf(product) : []
    if (!product || current.length >= list.length) continue
    await productAdminService.update(product.id, {
      retailers: list.map(({ hoursAfterRelease, ...entry }) => ({
        ...entry,
        releaseAt: hoursAfterRelease ? product.releaseAt?.plus({ hours: hoursAfterRelease }) : null,
      })),
    })
  }
  for (const [slug, hours] of Object.entries(DEMO_RESTOCK_HOURS)) {
    const product = await Product.findBy('slug', slug)
    if (!product?.releaseAt || product.restockUntil) continue
    await productAdminService.update(product.id, {
      restockUntil: product.releaseAt.plus({ hours }),
    })
  }
}
