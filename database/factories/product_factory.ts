import { DateTime } from 'luxon'
import factory from '@adonisjs/lucid/factories'
import Product from '#catalog/models/product'
import { SHOE_SIZES } from '#catalog/services/catalog_service'

let sequence = 0

export const ProductFactory = factory
  .define(Product, () => {
    sequence += 1
    return {
      slug: `test-product-${Date.now().toString(36)}-${sequence}`,
      title: `Test Sneaker ${sequence}`,
      image: '/images/products/test.svg',
      description: 'A test release.',
      priceCents: 2500,
      sizeType: 'shoe' as const,
      sizes: SHOE_SIZES,
      styles: 'Black,White',
      tags: 'nike',
      avail: true,
      totalStock: 50,
      stockTaken: 0,
      releaseAt: DateTime.now().plus({ days: 3 }),
    }
  })
  .build()
