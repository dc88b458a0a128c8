import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'
import type { Order } from '../../../shared/api/types'
import { useSession } from '../../../shared/session/session'

/** GET /api/user/orders */
export function useOrders() {
  const user = useSession()
  return useQuery(user ? `user:orders:${user.uuid}` : null, () =>
    api<Order[]>('/api/user/orders', { auth: true })
  )
}
