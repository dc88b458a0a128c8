import { api } from './client'
import { useQuery } from './query'
import type { Profile } from './types'
import { useSession } from '../session/session'

/** GET /api/user/profiles */
export function useProfiles() {
  const user = useSession()
  return useQuery(user ? `user:profiles:${user.uuid}` : null, () =>
    api<Profile[]>('/api/user/profiles', { auth: true })
  )
}
