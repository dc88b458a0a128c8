import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'
import type { UserInfo } from '../../../shared/api/types'

/** POST /api/user/updateProfile {updates: {name, email, phone}} */
export function useUpdateAccount() {
  return useMutation(async (updates: { name: string; email: string; phone: string }) => {
    const answer = await api<{ success: boolean; user: UserInfo }>('/api/user/updateProfile', {
      method: 'POST',
      auth: true,
      body: { updates },
    })
    invalidate('user:info')
    return answer.user
  })
}
