/*
| HTTP kernel: the error handler and the middleware stacks.
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#core/exceptions/handler'))

server.use([
  // First: it times and counts every answer, static files and errors included.
  () => import('#core/middleware/request_metrics_middleware'),
  () => import('#core/middleware/container_bindings_middleware'),
  () => import('#core/middleware/security_headers_middleware'),
  () => import('#core/middleware/static_files_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
  // Before the router: a press on a product just seen sold out needs nothing after this.
  () => import('#checkout/middleware/sold_out_shortcut_middleware'),
])

router.use([
  () => import('#core/middleware/body_parser_middleware'),
  () => import('@adonisjs/auth/initialize_auth_middleware'),
])

export const middleware = router.named({
  auth: () => import('#core/middleware/auth_middleware'),
  admin: () => import('#core/middleware/admin_middleware'),
  jsonOnly: () => import('#core/middleware/json_only_middleware'),
})
