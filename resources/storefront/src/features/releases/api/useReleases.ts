import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'

/** GET /api/releases: settled releases of the last 90 days and the rate per retailer. */
export function useReleases() {
  return useQuery('releases', () => api('GET /api/releases'))
}
