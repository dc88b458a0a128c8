import Product from '#catalog/models/product'
import { AppError } from '#core/exceptions/app_error'

import { CLOTHING_SIZES, ONE_SIZE, SHOE_SIZES } from '#shared/vocabulary'

export { CLOTHING_SIZES, ONE_SIZE, SHOE_SIZES }

export class CatalogService {
  /** Products customers can see: available ones, the next release first. */
  async listAvailable() {
    return Product.query()
      .where('avail', true)
      .preload('retailers')
      .orderBy('release_at', 'desc')
      .orderBy('id', 'desc')
  }

  async findAvailable(id: number) {
    const product = Number.isSafeInteger(id) && id > 0 ? await Product.find(id) : null
    if (!product || !product.avail) throw productNotFound()
    return product
  }

  /** An available product with its retailers, as its page shows it. */
  async showAvailable(id: number) {
    const product = await this.findAvailable(id)
    await product.load('retailers')
    return product
  }
}

/** The 404 of a product that does not exist or is not available. */
export function productNotFound() {
  return AppError.notFound('Product not found.', 'product_not_found')
}

export const catalogService = new CatalogService()
