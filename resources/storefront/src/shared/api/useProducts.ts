import { api } from './client'
import { useQuery } from './query'
import type { Product } from './types'

export const fetchProducts = () => api<Product[]>('/api/products')

/** GET /api/products: the available catalogue. */
export function useProducts() {
  return useQuery('products', fetchProducts)
}
