import { api } from './client'
import { useQuery } from './query'
import { useSession } from '../session/session'

/** GET /api/user/info (a 401 logs out and reloads, see client.ts). */
export function useUserInfo() {
  const user = useSession()
  return useQuery(user ? `user:info:${user.uuid}` : null, () =>
    api('GET /api/user/info', { auth: true })
  )
}
