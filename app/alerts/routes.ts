/*
| Alerts module routes: the console's incident list, admins only (like every /api/admin route).
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { numericId } from '#core/helpers/route_matchers'

const IncidentsController = () => import('#alerts/controllers/incidents_controller')

router
  .group(() => {
    router.get('/incidents', [IncidentsController, 'index']).as('incidents.index')
    router
      .get('/incidents/:id', [IncidentsController, 'show'])
      .where('id', numericId)
      .as('incidents.show')
  })
  .prefix('/api/admin')
  .as('admin')
  .use(middleware.admin())
