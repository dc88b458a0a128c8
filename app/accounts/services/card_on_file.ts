import User from '#accounts/models/user'

export type CardOnFile = {
  customerId: string
  paymentMethodId: string
  brand: string | null
  last4: string | null
}

/** The customer's saved card at the gateway, or null if none is on file. */
export async function cardOnFile(userOrId: User | number): Promise<CardOnFile | null> {
  const user = typeof userOrId === 'number' ? await User.find(userOrId) : userOrId
  if (!user || !user.gatewayCustomerId || !user.cardPaymentMethodId) return null
  return {
    customerId: user.gatewayCustomerId,
    paymentMethodId: user.cardPaymentMethodId,
    brand: user.cardBrand,
    last4: user.cardLast4,
  }
}
