import { api } from './client'
import { useQuery } from './query'
import { useSession } from '../session/session'

/** GET /api/user/profiles */
export function useProfiles() {
  const user = useSession()
  return useQuery(user ? `user:profiles:${user.uuid}` : null, () =>
    api('GET /api/user/profiles', { auth: true })
  )
}
