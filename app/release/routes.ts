/*
| Release module routes: the bot's result callback, and the release-day admin calls (run
| history for the console, the spec's e-mail resends and ACO download) behind middleware.admin().
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { numericId } from '#core/helpers/route_matchers'

const CheckoutHooksController = () => import('#release/controllers/checkout_hooks_controller')
const ReleaseAdminController = () => import('#release/controllers/release_admin_controller')

const id = numericId
const publicId = router.matchers.uuid()

router
  .post('/api/hooks/checkout-results', [CheckoutHooksController, 'store'])
  .as('release.hooks.checkoutResults')

router
  .group(() => {
    router.get('/release-runs', [ReleaseAdminController, 'runs']).as('releaseRuns.index')
    router
      .get('/release-runs/:id', [ReleaseAdminController, 'run'])
      .where('id', id)
      .as('releaseRuns.show')
    router
      .get('/orders/resendEmail/:id', [ReleaseAdminController, 'resendEmail'])
      .where('id', publicId)
      .as('orders.resendEmail')
    router.get('/orders/resendAll', [ReleaseAdminController, 'resendAll']).as('orders.resendAll')
    router
      .get('/aco/getJSON/:id', [ReleaseAdminController, 'acoJson'])
      .where('id', publicId)
      .as('aco.getJSON')
  })
  .prefix('/api/admin')
  .as('admin')
  .use(middleware.admin())
