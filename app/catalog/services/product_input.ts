import {
  createProductValidator,
  updateProductValidator,
} from '#catalog/validators/product_validators'
import type { ProductChanges, ProductFields } from '#catalog/services/product_admin_service'

/**
 * A product as the console and `products:import` send it (the spec's field names, price in
 * dollars), checked by catalog's validators and turned into the service's fields. Both callers go
 * through here, so a product is checked and read one way; a bad field throws the validation error
 * (422 over HTTP, the row's message in an import).
 */
class ProductInput {
  async forCreate(input: unknown): Promise<ProductFields> {
    const data = await createProductValidator.validate(input)
    return {
      title: data.productTitle,
      slug: data.slug,
      image: data.productImage,
      description: data.description,
      priceCents: Math.round(data.price * 100),
      sizeType: data.sizeType,
      sizes: data.sizes,
      styles: data.styles,
      tags: data.tags,
      retailer: data.retailer,
      retailers: data.retailers,
      avail: data.avail,
      totalStock: data.totalStock,
      stockTaken: data.stockTaken,
      releaseAt: data.releaseAt,
      restockUntil: data.restockUntil,
      releaseMode: data.releaseMode,
      entryOpensAt: data.entryOpensAt,
      entryClosesAt: data.entryClosesAt,
      queueOpensAt: data.queueOpensAt,
      queueMinutes: data.queueMinutes,
      queueRatePerMinute: data.queueRatePerMinute,
    }
  }

  /** Only the fields sent change. */
  async forUpdate(input: unknown): Promise<ProductChanges> {
    const data = await updateProductValidator.validate(input)
    const changes: ProductChanges = {
      title: data.productTitle,
      slug: data.slug,
      image: data.productImage,
      description: data.description,
      priceCents: data.price === undefined ? undefined : Math.round(data.price * 100),
      sizeType: data.sizeType,
      sizes: data.sizes,
      styles: data.styles,
      tags: data.tags,
      retailer: data.retailer,
      retailers: data.retailers,
      avail: data.avail,
      totalStock: data.totalStock,
      releaseAt: data.releaseAt,
      restockUntil: data.restockUntil,
      releaseMode: data.releaseMode,
      entryOpensAt: data.entryOpensAt,
      entryClosesAt: data.entryClosesAt,
      queueOpensAt: data.queueOpensAt,
      queueMinutes: data.queueMinutes,
      queueRatePerMinute: data.queueRatePerMinute,
    }
    return Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined)
    ) as ProductChanges
  }
}

export const productInput = new ProductInput()
