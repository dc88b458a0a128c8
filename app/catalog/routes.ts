import router from '@adonisjs/core/services/router'

const ProductsController = () => import('#catalog/controllers/products_controller')

router.get('/api/products', [ProductsController, 'index']).as('catalog.products.index')
router.get('/api/products/:id', [ProductsController, 'show']).as('catalog.products.show')
