/*
| Release module routes: the bot's result callback, and the release-day admin calls behind
| middleware.admin(): run release day now, the run history for the console, the spec's e-mail
| resends and the ACO download.
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { numericId } from '#core/helpers/route_matchers'

const CheckoutHooksController = () => import('#release/controllers/checkout_hooks_controller')
const ReleaseAdminController = () => import('#release/controllers/release_admin_controller')
const ReleaseRunsController = () => import('#release/controllers/release_runs_controller')
const ReleaseReportsController = () => import('#release/controllers/release_reports_controller')

const id = numericId
const publicId = router.matchers.uuid()

router
  .post('/api/hooks/checkout-results', [CheckoutHooksController, 'store'])
  .as('release.hooks.checkoutResults')

// The public outcome reports of settled releases (a bearer token, if sent, marks one's own).
router.get('/api/releases', [ReleaseReportsController, 'index']).as('release.reports.index')
router
  .get('/api/releases/:productId/report', [ReleaseReportsController, 'show'])
  .where('productId', id)
  .as('release.reports.show')

router
  .group(() => {
    router.get('/release-runs', [ReleaseAdminController, 'runs']).as('releaseRuns.index')
    // Run release day now: it moves money, so JSON only and confirmed (see release_validators).
    router
      .post('/release-runs', [ReleaseRunsController, 'store'])
      .use(middleware.jsonOnly())
      .as('releaseRuns.store')
    router
      .get('/releases/:productId/report', [ReleaseReportsController, 'console'])
      .where('productId', id)
      .as('releases.report')
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
