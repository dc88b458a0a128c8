import type { HttpContext } from '@adonisjs/core/http'
import { catalogService } from '#catalog/services/catalog_service'
import { presentProduct } from '#catalog/services/product_presenter'
import { parseNumericId } from '#core/helpers/route_matchers'

export default class ProductsController {
  async index() {
    const products = await catalogService.listAvailable()
    return products.map(presentProduct)
  }

  /** Any id that is not a plain decimal one is a product that does not exist (404). */
  async show({ params }: HttpContext) {
    return presentProduct(await catalogService.showAvailable(parseNumericId(params.id) ?? 0))
  }
}
