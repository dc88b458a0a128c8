import { api } from '../../../shared/api/client'
import { setQueryData, useMutation, useQuery } from '../../../shared/api/query'
import { useSession } from '../../../shared/session/session'

export type PingsOverview = {
  push: { available: boolean; publicKey: string | null; subscriptions: number }
  discord: { configured: boolean; hint: string | null }
}

export type TestPingReport = {
  push: { sent: number; gone: number; failed: number; retrying: number }
  discord: { sent: number; gone: number; failed: number; retrying: number }
}

const keyOf = (uuid: string) => `user:pings:${uuid}`

/** GET /api/user/pings: where the customer's release-day pings go. */
export function usePings() {
  const user = useSession()
  return useQuery(user ? keyOf(user.uuid) : null, () =>
    api<PingsOverview>('/api/user/pings', { auth: true })
  )
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
      api<PingsOverview>('/api/user/pings/push', {
        method: 'POST',
        auth: true,
        body: subscription,
      }).then(keep)
    ),
    unsubscribe: useMutation((endpoint: string) =>
      api<PingsOverview>('/api/user/pings/push/delete', {
        method: 'POST',
        auth: true,
        body: { endpoint },
      }).then(keep)
    ),
    setDiscord: useMutation((url: string) =>
      api<PingsOverview>('/api/user/pings/discord', {
        method: 'PUT',
        auth: true,
        body: { url },
      }).then(keep)
    ),
    clearDiscord: useMutation(() =>
      api<PingsOverview>('/api/user/pings/discord', { method: 'DELETE', auth: true }).then(keep)
    ),
    test: useMutation(() =>
      api<TestPingReport>('/api/user/pings/test', { method: 'POST', auth: true })
    ),
  }
}
