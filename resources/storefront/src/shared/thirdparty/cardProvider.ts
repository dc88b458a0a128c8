import { getConfig } from '../config'
import { loadScript } from './loadScript'

type StripeClient = {
  handleNextAction: (options: { clientSecret: string }) => Promise<{ error?: { message?: string } }>
  confirmCardPayment: (
    clientSecret: string,
    data: { payment_method: string }
  ) => Promise<{ error?: { message?: string } }>
}
type StripeFactory = (key: string) => StripeClient

let client: Promise<StripeClient | null> | null = null

/** Stripe.js with our publishable key, loaded once; null when no key is configured. */
function stripe(): Promise<StripeClient | null> {
  const key = getConfig().integrations.cardProviderKey
  if (!key) return Promise.resolve(null)
  client ??= loadScript('https://js.stripe.com/v3/').then(() => {
    const factory = (window as Window & { Stripe?: StripeFactory }).Stripe
    return factory ? factory(key) : null
  })
  return client
}

/**
 * Stripe recommends loading Stripe.js on every page so its fraud signals see the whole visit.
 * Cards are tokenised by our server (the transport envelope); Stripe.js also shows the bank's
 * 3-D Secure challenge when a card being saved asks for it.
 */
export function startCardProvider() {
  stripe().catch(() => {
    client = null
  })
}

/**
 * Takes the customer through the bank's 3-D Secure challenge in Stripe's own overlay. Resolves
 * when the customer has answered (the server then reads the outcome); false without Stripe.js.
 */
export async function handleCardAction(clientSecret: string): Promise<boolean> {
  const loaded = await stripe()
  if (!loaded) return false
  await loaded.handleNextAction({ clientSecret })
  return true
}

/**
 * Confirms a payment the bank held back for 3-D Secure with the saved card, on-session: Stripe
 * shows the challenge. Resolves when the customer has answered; false without Stripe.js.
 */
export async function confirmHeldPayment(
  clientSecret: string,
  paymentMethodId: string
): Promise<boolean> {
  const loaded = await stripe()
  if (!loaded) return false
  await loaded.confirmCardPayment(clientSecret, { payment_method: paymentMethodId })
  return true
}
