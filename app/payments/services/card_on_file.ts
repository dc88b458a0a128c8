import db from '@adonisjs/lucid/services/db'

export type CardOnFile = {
  customerId: string
  paymentMethodId: string
  brand: string | null
  last4: string | null
}

/** What the customer's row says about their card at the gateway (a loaded user has it all). */
export type CardHolder = {
  gatewayCustomerId: string | null
  cardPaymentMethodId: string | null
  cardBrand: string | null
  cardLast4: string | null
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
  }
}

async function holderOf(userId: number): Promise<CardHolder | null> {
  const row = await db
    .from('users')
    .where('id', userId)
    .select('gateway_customer_id', 'card_payment_method_id', 'card_brand', 'card_last4')
    .first()
  if (!row) return null
  return {
    gatewayCustomerId: row.gateway_customer_id,
    cardPaymentMethodId: row.card_payment_method_id,
    cardBrand: row.card_brand,
    cardLast4: row.card_last4,
  }
}
