/*
| Draw routes: the public proof of a draw, and the console's draw view and run.
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { numericId } from '#core/helpers/route_matchers'

const DrawsController = () => import('#draws/controllers/draws_controller')

router
  .get('/api/products/:id/draw', [DrawsController, 'proof'])
  .where('id', numericId)
  .as('draws.proof')

router
  .group(() => {
    router.get('/draws/:id', [DrawsController, 'show']).where('id', numericId).as('draws.show')
    router
      .post('/draws/:id/run', [DrawsController, 'run'])
      .where('id', numericId)
      .use(middleware.jsonOnly())
      .as('draws.run')
  })
  .prefix('/api/admin')
  .as('admin')
  .use(middleware.admin())
