import { api } from '../../../shared/api/client'
import { useQuery } from '../../../shared/api/query'
import type { DrawProof } from '../../../shared/api/types'

/** GET /api/products/:id/draw */
export function useDrawProof(id: string | undefined) {
  return useQuery(id ? `draw:${id}` : null, () =>
    api<DrawProof>(`/api/products/${encodeURIComponent(id ?? '')}/draw`)
  )
}
