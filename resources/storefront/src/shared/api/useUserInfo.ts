import { api } from './client'
import { useQuery } from './query'
import type { UserInfo } from './types'
import { useSession } from '../session/session'

/** GET /api/user/info (a 401 logs out and reloads, see client.ts). */
export function useUserInfo() {
  const user = useSession()
  return useQuery(user ? `user:info:${user.uuid}` : null, () =>
    api<UserInfo>('/api/user/info', { auth: true })
  )
}
