import { useEffect } from 'react'
import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'
import { promoStore, useStoredPromoCode } from '../../../shared/promo'

/**
 * GET /api/promoLookup?promoCode= for the stored code (fetched only if one is stored). A code
 * that does not look up is cleared, so it stops being sent with checkouts.
 */
export function usePromoLookup() {
  const code = useStoredPromoCode()
  const query = useQuery(code ? `promo:${code}` : null, () =>
    api('GET /api/promoLookup', { query: { promoCode: code ?? '' } })
  )
  useEffect(() => {
    if (code && query.error) promoStore.clear()
  }, [code, query.error])
  return {
    code,
    promo: code && query.data ? query.data : null,
    failed: query.error ?? null,
    loading: query.loading,
  }
}
