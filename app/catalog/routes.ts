import router from '@adonisjs/core/services/router'
import { numericId } from '#core/helpers/route_matchers'

const ProductsController = () => import('#catalog/controllers/products_controller')

router.get('/api/products', [ProductsController, 'index']).as('catalog.products.index')
router
  .get('/api/products/:id', [ProductsController, 'show'])
  .where('id', numericId)
  .as('catalog.products.show')
