import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'

/** POST /api/user/profiles/delete {profileId} */
export function useDeleteProfile() {
  return useMutation(async (profileId: string) => {
    await api<{ success: boolean }>('/api/user/profiles/delete', {
      method: 'POST',
      auth: true,
      body: { profileId },
    })
    invalidate('user:profiles')
  })
}
