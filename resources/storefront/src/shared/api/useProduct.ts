import { api } from './client'
import { useQuery } from './query'

/** GET /api/products/:id */
export function useProduct(id: string | undefined) {
  return useQuery(id ? `product:${id}` : null, () =>
    api('GET /api/products/:id', { params: { id: id ?? '' } })
  )
}
