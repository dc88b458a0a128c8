import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'
import type { Order } from '../../../shared/api/types'
import { useSession } from '../../../shared/session/session'

/** Statuses that still change on their own (a card check, a draw, release day). */
const MOVING = ['entered', 'pending', 'processing']
const FOLLOW_MS = 5000

/**
 * GET /api/user/orders, followed every few seconds while an order can still change, so a status
 * (Pending to Success, Entered to Pending) appears without a reload.
 */
export function useOrders() {
  const user = useSession()
  return useQuery(
    user ? `user:orders:${user.uuid}` : null,
    () => api<Order[]>('/api/user/orders', { auth: true }),
    {
      refetchInterval: (orders) =>
        orders?.some((order) => MOVING.includes(String(order.status).toLowerCase()))
          ? FOLLOW_MS
          : false,
    }
  )
}
