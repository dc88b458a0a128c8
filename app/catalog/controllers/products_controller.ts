import type { HttpContext } from '@adonisjs/core/http'
import { catalogService } from '#catalog/services/catalog_service'
import { presentProduct } from '#catalog/services/product_presenter'

export default class ProductsController {
  async index() {
    const products = await catalogService.listAvailable()
    return products.map(presentProduct)
  }

  async show({ params }: HttpContext) {
    return presentProduct(await catalogService.findAvailable(Number(params.id)))
  }
}
