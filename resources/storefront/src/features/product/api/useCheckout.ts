import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'
import { getConfig } from '../../../shared/config'
import { seal } from '../../../shared/lib/envelope'
import type { SlotChoicesBody } from '../../../shared/lib/slotChoices'

export type CheckoutRequest = {
  productId: number
  style: string
  size: string
  profileId: string
  promoCode?: string
  /** The card's security code, when the profile no longer keeps it (sent sealed). */
  cardCode?: string
  /** The waiting room's pass, for a drop that has one. */
  queuePass?: string
} & SlotChoicesBody

/**
 * POST /api/checkout/withprofile: buys the slot; 409 code 'duplicate' for a profile already in,
 * 409 'card_code_required' when the profile's security code was deleted and none was sent, 422
 * 'invalid_slot_choices' naming the field of the sizes, retailers or price cap it refused.
 */
export function useCheckout() {
  return useMutation(async ({ cardCode, ...request }: CheckoutRequest) => {
    const eCardCode = cardCode
      ? await seal(getConfig().profileTransportKey, { code: cardCode })
      : undefined
    const answer = await api('POST /api/checkout/withprofile', {
      auth: true,
      body: eCardCode ? { ...request, eCardCode } : request,
    })
    invalidate('user:orders')
    invalidate('product')
    return answer.order
  })
}
