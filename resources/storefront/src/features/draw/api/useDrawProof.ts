import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'

/** GET /api/products/:id/draw */
export function useDrawProof(id: string | number | undefined) {
  return useQuery(id ? `draw:${id}` : null, () =>
    api('GET /api/products/:id/draw', { params: { id: id ?? '' } })
  )
}

/** GET /api/products/:id/draw/entries/:entryId (one entry's place in the frozen list) */
export function useInclusionProof(id: string | undefined, entryId: string | null) {
  return useQuery(id && entryId ? `draw:${id}:entry:${entryId}` : null, () =>
    api('GET /api/products/:id/draw/entries/:entryId', {
      params: { id: id ?? '', entryId: entryId ?? '' },
    })
  )
}

/** GET /api/products/:id/queue/proof */
export function useLineProof(id: string | undefined) {
  return useQuery(id ? `line:${id}` : null, () =>
    api('GET /api/products/:id/queue/proof', { params: { id: id ?? '' } })
  )
}
