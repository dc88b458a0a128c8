import { getConfig } from '../config'
import { loadScript } from './loadScript'

/**
 * Stripe recommends loading Stripe.js on every page so its fraud signals see the whole visit.
 * Cards are tokenised by our server (the transport envelope), so the key is used for nothing else.
 */
export function startCardProvider() {
  const key = getConfig().integrations.cardProviderKey
  if (!key) return
  loadScript('https://js.stripe.com/v3/')
    .then(() => {
      const stripe = (window as Window & { Stripe?: (key: string) => unknown }).Stripe
      stripe?.(key)
    })
    .catch(() => {})
}
