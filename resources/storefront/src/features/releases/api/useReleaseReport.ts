import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'
import { useSession } from '../../../shared/session/session'

/**
 * GET /api/releases/:id/report. Signed in, the token goes along so the customer's own orders
 * come back marked.
 */
export function useReleaseReport(id: string | undefined) {
  const user = useSession()
  return useQuery(id ? `release-report:${id}:${user?.uuid ?? 'anonymous'}` : null, () =>
    api('GET /api/releases/:productId/report', {
      params: { productId: id ?? '' },
      auth: Boolean(user),
    })
  )
}
