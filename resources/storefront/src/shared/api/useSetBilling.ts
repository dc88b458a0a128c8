import { api } from './client'
import { setQueryData, useMutation } from './query'
import type { BillingPayload, UserInfo } from './types'

/** POST /api/user/billing/set; with a card token it also saves that card on file. */
export function useSetBilling() {
  return useMutation(async (billingAddress: BillingPayload, token?: string) => {
    const result = await api<{ success: boolean; user: UserInfo }>('/api/user/billing/set', {
      method: 'POST',
      auth: true,
      body: token ? { billingAddress, token } : { billingAddress },
    })
    setQueryData(`user:info:${result.user.uuid}`, result.user)
    return result
  })
}
