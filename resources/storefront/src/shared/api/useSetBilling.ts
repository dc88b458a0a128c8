import { api } from './client'
import { invalidate, useMutation } from './query'
import type { BillingPayload, UserInfo } from './types'

/** POST /api/user/billing/set; with a card token it also saves that card on file. */
export function useSetBilling() {
  return useMutation(async (billingAddress: BillingPayload, token?: string) => {
    const result = await api<{ success: boolean; user: UserInfo }>('/api/user/billing/set', {
      method: 'POST',
      auth: true,
      body: token ? { billingAddress, token } : { billingAddress },
    })
    invalidate('user:info')
    return result
  })
}
