import { api } from './client'
import { useQuery } from './query'
import type { Product } from './types'

/** GET /api/products/:id */
export function useProduct(id: string | undefined) {
  return useQuery(id ? `product:${id}` : null, () =>
    api<Product>(`/api/products/${encodeURIComponent(id ?? '')}`)
  )
}
