import { api } from './client'
import { setQueryData, useMutation } from './query'
import type { BillingPayload } from '@shared/api/contract'

/**
 * POST /api/user/billing/set; with a card token it also saves that card on file. A card whose
 * bank asks for 3-D Secure answers `authentication` instead, and nothing is written yet.
 */
export function useSetBilling() {
  return useMutation(async (billingAddress: BillingPayload, token?: string) => {
    const result = await api('POST /api/user/billing/set', {
      auth: true,
      body: token ? { billingAddress, token } : { billingAddress },
    })
    if (result.success) setQueryData(`user:info:${result.user.uuid}`, result.user)
    return result
  })
}
