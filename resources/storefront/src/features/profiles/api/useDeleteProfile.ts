import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'

/** POST /api/user/profiles/delete {profileId} */
export function useDeleteProfile() {
  return useMutation(async (profileId: string) => {
    await api('POST /api/user/profiles/delete', {
      auth: true,
      body: { profileId },
    })
    invalidate('user:profiles')
  })
}
