import { api } from './client'
import { useQuery } from './query'

export const fetchProducts = () => api('GET /api/products')

/** GET /api/products: the available catalogue. */
export function useProducts() {
  return useQuery('products', fetchProducts)
}
