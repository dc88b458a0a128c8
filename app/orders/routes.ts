import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const OrdersController = () => import('#orders/controllers/orders_controller')

router
  .get('/api/user/orders', [OrdersController, 'index'])
  .as('orders.index')
  .use(middleware.auth())
