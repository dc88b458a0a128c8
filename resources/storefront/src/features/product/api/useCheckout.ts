import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'
import type { Order } from '../../../shared/api/types'

export type CheckoutRequest = {
  productId: number
  style: string
  size: string
  profileId: string
  promoCode?: string
}

/** POST /api/checkout/withprofile: buys the slot; 409 code 'duplicate' for a profile already in. */
export function useCheckout() {
  return useMutation(async (request: CheckoutRequest) => {
    const answer = await api<{ success: boolean; order: Order }>('/api/checkout/withprofile', {
      method: 'POST',
      auth: true,
      body: request,
    })
    invalidate('user:orders')
    invalidate('product')
    return answer.order
  })
}
