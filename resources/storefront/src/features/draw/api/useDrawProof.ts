import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'
import type { DrawProof, InclusionProof, LineProof } from '../../../shared/api/types'

/** GET /api/products/:id/draw */
export function useDrawProof(id: string | number | undefined) {
  return useQuery(id ? `draw:${id}` : null, () =>
    api<DrawProof>(`/api/products/${encodeURIComponent(String(id ?? ''))}/draw`)
  )
}

/** GET /api/products/:id/draw/entries/:entryId (one entry's place in the frozen list) */
export function useInclusionProof(id: string | undefined, entryId: string | null) {
  return useQuery(id && entryId ? `draw:${id}:entry:${entryId}` : null, () =>
    api<InclusionProof>(
      `/api/products/${encodeURIComponent(id ?? '')}/draw/entries/${encodeURIComponent(entryId ?? '')}`
    )
  )
}

/** GET /api/products/:id/queue/proof */
export function useLineProof(id: string | undefined) {
  return useQuery(id ? `line:${id}` : null, () =>
    api<LineProof>(`/api/products/${encodeURIComponent(id ?? '')}/queue/proof`)
  )
}
