import db from '@adonisjs/lucid/services/db'

export type CardOnFile = {
  customerId: string
  paymentMethodId: string
  brand: string | null
  last4: string | null
  /** The gateway's fingerprint of the card (null for a card saved before it was kept). */
  fingerprint: string | null
}

/** What the customer's row says about their card at the gateway (a loaded user has it all). */
export type CardHolder = {
  gatewayCustomerId: string | null
  cardPaymentMethodId: string | null
  cardBrand: string | null
  cardLast4: string | null
  cardFingerprint?: string | null
}

/** The customer's saved card at the gateway, or null if none is on file. */
export async function cardOnFile(holderOrUserId: CardHolder | number): Promise<CardOnFile | null> {
  const holder =
    typeof holderOrUserId === 'number' ? await holderOf(holderOrUserId) : holderOrUserId
  if (!holder || !holder.gatewayCustomerId || !holder.cardPaymentMethodId) return null
  return {
    customerId: holder.gatewayCustomerId,
    paymentMethodId: holder.cardPaymentMethodId,
    brand: holder.cardBrand,
    last4: holder.cardLast4,
    fingerprint: holder.cardFingerprint ?? null,
  }
}

async function holderOf(userId: number): Promise<CardHolder | null> {
  const row = await db
    .from('users')
    .where('id', userId)
    .select(
      'gateway_customer_id',
      'card_payment_method_id',
      'card_brand',
      'card_last4',
      'card_fingerprint'
    )
    .first()
  if (!row) return null
  return {
    gatewayCustomerId: row.gateway_customer_id,
    cardPaymentMethodId: row.card_payment_method_id,
    cardBrand: row.card_brand,
    cardLast4: row.card_last4,
    cardFingerprint: row.card_fingerprint,
  }
}

/**
 * The gateway's fingerprint of the customer's card on file, the card a $1.00 check is made on:
 * as kept when the card was saved, or asked of the gateway for a card saved before that (a
 * read: nothing is created or charged). Null when the customer has no card on file.
 */
export async function cardOnFileFingerprint(userId: number): Promise<string | null> {
  const card = await cardOnFile(userId)
  if (!card) return null
  if (card.fingerprint) return card.fingerprint
  const { gateway } = await import('#payments/services/gateway')
  return gateway().cardFingerprint({
    customerId: card.customerId,
    paymentMethodId: card.paymentMethodId,
  })
}
