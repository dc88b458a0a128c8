import { api } from '../../../shared/api/client'
import { invalidate, useQuery } from '../../../shared/api/query'
import { useLiveChannel } from '../../../shared/api/live'
import { useSession } from '../../../shared/session/session'

/** Statuses that still change on their own (a card check, a draw, release day). */
const MOVING = ['entered', 'pending', 'processing']
/** Polling, only while the live stream is not connected. */
const FALLBACK_POLL_MS = 5000

/**
 * GET /api/user/orders, refetched the moment the server announces a change to one of the
 * customer's orders (server-sent events on `users/<uuid>/orders`), so a status (Pending to
 * Success, Entered to Pending) appears without a reload. Without the stream it falls back to
 * polling every few seconds while an order can still change.
 */
export function useOrders() {
  const user = useSession()
  const key = user ? `user:orders:${user.uuid}` : null
  const live = useLiveChannel(user ? `users/${user.uuid}/orders` : null, () => {
    if (key) invalidate(key)
  })
  const query = useQuery(key, () => api('GET /api/user/orders', { auth: true }), {
    refetchInterval: (orders) =>
      !live && orders?.some((order) => MOVING.includes(String(order.status).toLowerCase()))
        ? FALLBACK_POLL_MS
        : false,
  })
  return { ...query, live }
}
