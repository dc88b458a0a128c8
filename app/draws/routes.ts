/*
| Fair entry: the public proof of a draw and the console's draw view and run; the waiting room
| of a first-come drop (join, place in line, pass) and the console's view of it.
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { numericId } from '#core/helpers/route_matchers'

/** An entry id as published (a UUID): anything else is a 404 before any query. */
const entryIdMatcher = { match: /^[0-9a-f-]{36}$/ }

const DrawsController = () => import('#draws/controllers/draws_controller')
const WaitingRoomsController = () => import('#draws/controllers/waiting_rooms_controller')

router
  .get('/api/products/:id/draw', [DrawsController, 'proof'])
  .where('id', numericId)
  .as('draws.proof')
router
  .get('/api/products/:id/draw/entries/:entryId', [DrawsController, 'inclusion'])
  .where('id', numericId)
  .where('entryId', entryIdMatcher)
  .as('draws.inclusion')

router
  .get('/api/products/:id/queue/proof', [WaitingRoomsController, 'proof'])
  .where('id', numericId)
  .as('waitingRooms.proof')

router
  .group(() => {
    router
      .post('/api/products/:id/queue', [WaitingRoomsController, 'join'])
      .where('id', numericId)
      .as('waitingRooms.join')
    router
      .get('/api/products/:id/queue', [WaitingRoomsController, 'status'])
      .where('id', numericId)
      .as('waitingRooms.status')
  })
  .use(middleware.auth())

router
  .group(() => {
    router
      .get('/waiting-rooms/:id', [WaitingRoomsController, 'show'])
      .where('id', numericId)
      .as('waitingRooms.show')
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
