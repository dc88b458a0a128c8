import { api } from '../../../shared/api/client'
import { setQueryData, useMutation } from '../../../shared/api/query'

/** POST /api/user/updateProfile {updates: {name, email, phone}} */
export function useUpdateAccount() {
  return useMutation(async (updates: { name: string; email: string; phone: string }) => {
    const answer = await api('POST /api/user/updateProfile', {
      auth: true,
      body: { updates },
    })
    setQueryData(`user:info:${answer.user.uuid}`, answer.user)
    return answer.user
  })
}
