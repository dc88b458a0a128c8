import { api } from '../../../shared/api/client'
import { setQueryData, useMutation } from '../../../shared/api/query'
import type { UserInfo } from '../../../shared/api/types'

/** POST /api/user/updateProfile {updates: {name, email, phone}} */
export function useUpdateAccount() {
  return useMutation(async (updates: { name: string; email: string; phone: string }) => {
    const answer = await api<{ success: boolean; user: UserInfo }>('/api/user/updateProfile', {
      method: 'POST',
      auth: true,
      body: { updates },
    })
    setQueryData(`user:info:${answer.user.uuid}`, answer.user)
    return answer.user
  })
}
