import { api } from '../../../shared/api/client'
import { setQueryData, useMutation, useQuery } from '../../../shared/api/query'
import { useSession } from '../../../shared/session/session'
import type { PingsOverview } from '@shared/api/contract'

export type { PingsOverview } from '@shared/api/contract'

const keyOf = (uuid: string) => `user:pings:${uuid}`

/** GET /api/user/pings: where the customer's release-day pings go. */
export function usePings() {
  const user = useSession()
  return useQuery(user ? keyOf(user.uuid) : null, () => api('GET /api/user/pings', { auth: true }))
}

/** The calls that change them; each answers the new overview, kept in the cache. */
export function usePingActions() {
  const user = useSession()
  const keep = (overview: PingsOverview) => {
    if (user) setQueryData(keyOf(user.uuid), overview)
    return overview
  }
  return {
    subscribe: useMutation((subscription: PushSubscriptionJSON) =>
      api('POST /api/user/pings/push', {
        auth: true,
        body: {
          endpoint: subscription.endpoint ?? '',
          keys: { auth: subscription.keys?.auth ?? '', p256dh: subscription.keys?.p256dh ?? '' },
        },
      }).then(keep)
    ),
    unsubscribe: useMutation((endpoint: string) =>
      api('POST /api/user/pings/push/delete', {
        auth: true,
        body: { endpoint },
      }).then(keep)
    ),
    setDiscord: useMutation((url: string) =>
      api('PUT /api/user/pings/discord', {
        auth: true,
        body: { url },
      }).then(keep)
    ),
    clearDiscord: useMutation(() =>
      api('DELETE /api/user/pings/discord', { auth: true }).then(keep)
    ),
    test: useMutation(() => api('POST /api/user/pings/test', { auth: true })),
  }
}
