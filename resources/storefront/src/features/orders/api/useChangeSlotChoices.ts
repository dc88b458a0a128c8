import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'
import type { SlotChoicesBody } from '../../../shared/lib/slotChoices'

/**
 * POST /api/user/orders/:orderId/choices: a slot's backup sizes, retailers and price cap, changed
 * until its release starts (absent: unchanged, null: back to the default). 422
 * 'invalid_slot_choices' names the field refused, 409 'choices_closed' once the release started.
 */
export function useChangeSlotChoices() {
  return useMutation(async (orderId: string, choices: SlotChoicesBody) => {
    const answer = await api('POST /api/user/orders/:orderId/choices', {
      params: { orderId },
      auth: true,
      body: choices,
    })
    invalidate('user:orders')
    return answer.order
  })
}
