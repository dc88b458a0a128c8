/*
| Who may follow which live-update channel (server-sent events through @adonisjs/transmit,
| config/transmit.ts; the routes are in app/core/routes.ts).
*/
import app from '@adonisjs/core/services/app'
import transmit from '@adonisjs/transmit/services/main'
import type { HttpContext } from '@adonisjs/core/http'
import { CUSTOMER_ORDERS_CHANNEL } from '#orders/services/order_updates'

// A customer's order updates are theirs alone (the orders module's OrderPolicy).
transmit.authorize<{ uuid: string }>(CUSTOMER_ORDERS_CHANNEL, (ctx: HttpContext, { uuid }) =>
  ctx.bouncer.with('OrderPolicy').allows('followUpdates', uuid)
)

// An open stream never ends on its own, so it would keep the HTTP server from closing on
// SIGTERM: end them first (registered before the server's own hook, so it runs before it). The
// storefront reconnects, to another process when there is one, and polls meanwhile.
app.terminating(() => {
  for (const [stream] of transmit.getManager().getAllSubscribers()) stream.end()
})
