import { getConfig } from '../config'
import { loadScript } from './loadScript'

type AnalyticsWindow = Window & { dataLayer?: unknown[] }

let started = false

/** Starts Google Tag Manager when a container id is configured. */
export function startAnalytics() {
  const id = getConfig().integrations.analyticsId
  if (!id || started) return
  started = true
  const w = window as AnalyticsWindow
  w.dataLayer = w.dataLayer ?? []
  w.dataLayer.push({ 'gtm.start': Date.now(), 'event': 'gtm.js' })
  void loadScript(`https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`).catch(
    () => {}
  )
}

export type PurchasedOrder = {
  orderId: string
  productId: number
  productTitle: string
  price: number
  size?: string
  style?: string
  promoCode?: string | null
}

/** The purchase event after an order (GA4 ecommerce shape), only when analytics is configured. */
export function trackPurchase(order: PurchasedOrder) {
  if (!started) return
  const w = window as AnalyticsWindow
  w.dataLayer = w.dataLayer ?? []
  w.dataLayer.push({ ecommerce: null })
  w.dataLayer.push({
    event: 'purchase',
    ecommerce: {
      transaction_id: order.orderId,
      currency: 'USD',
      value: order.price,
      coupon: order.promoCode ?? undefined,
      items: [
        {
          item_id: String(order.productId),
          item_name: order.productTitle,
          item_variant: [order.style, order.size].filter(Boolean).join(' / ') || undefined,
          price: order.price,
          quantity: 1,
        },
      ],
    },
  })
}
