/*
| Admin module routes. Everything under /api/admin is behind `middleware.admin()` (401 for
| anonymous callers, 403 for customers); tests/functional/admin/route_guard.spec.ts walks the
| router's real route list and checks both for every /api/admin route, new ones included.
|
| Two dialects over the same services:
| - ra-data-simple-rest resources for the console: GET list (sort/range/filter, Content-Range),
|   GET one, POST, PUT, DELETE under /api/admin/<resource>;
| - the spec's own admin calls (products/create, products/edit, products/id/:id, GET orders).
|
| Calls that move money (run release; mark, refund, waive, retry or correct an order) take
| `middleware.jsonOnly()`: a body that is not a parsed JSON object is a 415/400, never a run or a
| money move with default values.
|
| Numeric ids match `numericId` (at most 15 digits), public ids (orders, customers) match `uuid`, so a static path
| added later next to them (orders/resendAll, subscribers/export.csv) can never be taken for an id.
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { numericId } from '#core/helpers/route_matchers'
import { orderReferenceMatcher } from '#orders/services/order_numbers'

const ConsoleController = () => import('#admin/controllers/console_controller')
const DashboardController = () => import('#admin/controllers/dashboard_controller')
const ProductsController = () => import('#admin/controllers/products_controller')
const OrdersController = () => import('#admin/controllers/orders_controller')
const CustomersController = () => import('#admin/controllers/customers_controller')
const PromoCodesController = () => import('#admin/controllers/promo_codes_controller')
const SubscribersController = () => import('#admin/controllers/subscribers_controller')
const EmailsController = () => import('#admin/controllers/emails_controller')
const AuditLogController = () => import('#admin/controllers/audit_log_controller')
const QueuesController = () => import('#admin/controllers/queues_controller')

const id = numericId
const publicId = router.matchers.uuid()
// An order in a URL: its public id or its `DS-` confirmation number.
const orderRef = orderReferenceMatcher

// Spec calls first, then the REST resource.
function productRoutes() {
  router.post('/products/create', [ProductsController, 'specCreate']).as('products.specCreate')
  router.post('/products/edit', [ProductsController, 'specEdit']).as('products.specEdit')
  router
    .delete('/products/id/:id', [ProductsController, 'specDestroy'])
    .where('id', id)
    .as('products.specDestroy')
  router.get('/products', [ProductsController, 'index']).as('products.index')
  router.post('/products', [ProductsController, 'store']).as('products.store')
  router.get('/products/:id', [ProductsController, 'show']).where('id', id).as('products.show')
  router.put('/products/:id', [ProductsController, 'update']).where('id', id).as('products.update')
  router
    .delete('/products/:id', [ProductsController, 'destroy'])
    .where('id', id)
    .as('products.destroy')
}

// Spec calls first, then the REST resource with its actions (those moving money JSON only).
function orderRoutes() {
  router.post('/orders/create', [OrdersController, 'specCreate']).as('orders.specCreate')
  router
    .delete('/orders/id/:id', [OrdersController, 'specDestroy'])
    .where('id', orderRef)
    .as('orders.specDestroy')
  router.get('/orders', [OrdersController, 'index']).as('orders.index')
  router.post('/orders', [OrdersController, 'store']).as('orders.store')
  router.get('/orders/:id', [OrdersController, 'show']).where('id', orderRef).as('orders.show')
  router
    .post('/orders/:id/mark', [OrdersController, 'mark'])
    .where('id', orderRef)
    .use(middleware.jsonOnly())
    .as('orders.mark')
  router
    .post('/orders/:id/refund', [OrdersController, 'refund'])
    .where('id', orderRef)
    .use(middleware.jsonOnly())
    .as('orders.refund')
  router
    .post('/orders/:id/waive-fee', [OrdersController, 'waiveFee'])
    .where('id', orderRef)
    .use(middleware.jsonOnly())
    .as('orders.waiveFee')
  router
    .post('/orders/:id/retry', [OrdersController, 'retry'])
    .where('id', orderRef)
    .use(middleware.jsonOnly())
    .as('orders.retry')
  router
    .post('/orders/:id/correct', [OrdersController, 'correct'])
    .where('id', orderRef)
    .use(middleware.jsonOnly())
    .as('orders.correct')
  router
    .delete('/orders/:id', [OrdersController, 'destroy'])
    .where('id', orderRef)
    .as('orders.destroy')
}

function customerRoutes() {
  router.get('/customers', [CustomersController, 'index']).as('customers.index')
  router
    .get('/customers/:id', [CustomersController, 'show'])
    .where('id', publicId)
    .as('customers.show')
  router
    .put('/customers/:id', [CustomersController, 'update'])
    .where('id', publicId)
    .as('customers.update')
  router
    .delete('/customers/:id', [CustomersController, 'destroy'])
    .where('id', publicId)
    .as('customers.destroy')
}

function promoCodeRoutes() {
  router.get('/promo-codes', [PromoCodesController, 'index']).as('promoCodes.index')
  router.post('/promo-codes', [PromoCodesController, 'store']).as('promoCodes.store')
  router
    .get('/promo-codes/:id', [PromoCodesController, 'show'])
    .where('id', id)
    .as('promoCodes.show')
  router
    .put('/promo-codes/:id', [PromoCodesController, 'update'])
    .where('id', id)
    .as('promoCodes.update')
  router
    .delete('/promo-codes/:id', [PromoCodesController, 'destroy'])
    .where('id', id)
    .as('promoCodes.destroy')
}

function subscriberRoutes() {
  router.get('/subscribers/export.csv', [SubscribersController, 'export']).as('subscribers.export')
  router.get('/subscribers', [SubscribersController, 'index']).as('subscribers.index')
  router
    .get('/subscribers/:id', [SubscribersController, 'show'])
    .where('id', id)
    .as('subscribers.show')
  router
    .delete('/subscribers/:id', [SubscribersController, 'destroy'])
    .where('id', id)
    .as('subscribers.destroy')
}

// The sent e-mails, the background job queues and the audit log.
function operationsRoutes() {
  router.get('/emails', [EmailsController, 'index']).as('emails.index')
  router.get('/emails/:id', [EmailsController, 'show']).where('id', id).as('emails.show')

  // Background job queues: counts, work due, failed jobs (retry or discard, audited).
  router.get('/queues', [QueuesController, 'index']).as('queues.index')
  router
    .post('/queues/:queue/failed/:jobId/retry', [QueuesController, 'retry'])
    .where('jobId', /^[\w-]{1,100}$/)
    .as('queues.retry')
  router
    .post('/queues/:queue/failed/:jobId/discard', [QueuesController, 'discard'])
    .where('jobId', /^[\w-]{1,100}$/)
    .as('queues.discard')

  router.get('/audit-log', [AuditLogController, 'index']).as('auditLog.index')
  router.get('/audit-log/:id', [AuditLogController, 'show']).where('id', id).as('auditLog.show')
}

router
  .group(() => {
    router.get('/dashboard', [DashboardController, 'show']).as('dashboard')
    productRoutes()
    orderRoutes()
    customerRoutes()
    promoCodeRoutes()
    subscriberRoutes()
    operationsRoutes()
  })
  .prefix('/api/admin')
  .as('admin')
  .use(middleware.admin())

// The console itself (static HTML shell; its data comes from the guarded API above). Registered
// before the storefront's catch-all, which would otherwise answer these paths.
router.get('/admin', [ConsoleController, 'show']).as('admin.console')
router.get('/admin/*', [ConsoleController, 'show']).as('admin.console.deep')
