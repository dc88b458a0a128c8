import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'
import type { ProfileInput } from '../../../shared/api/useAddProfile'
import { seal } from '../../../shared/lib/envelope'
import { getConfig } from '../../../shared/config'

/** POST /api/user/profiles/edit {eProfile}; without `card` the saved card is kept. */
export function useEditProfile() {
  return useMutation(async (profile: ProfileInput & { profileId: string }) => {
    const eProfile = await seal(getConfig().profileTransportKey, profile)
    const answer = await api('POST /api/user/profiles/edit', {
      auth: true,
      body: { eProfile },
    })
    invalidate('user:profiles')
    return answer.profile
  })
}
