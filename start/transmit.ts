/*
| Live updates (server-sent events through @adonisjs/transmit, config/transmit.ts).
| GET /__transmit/events is the stream: an EventSource cannot send a bearer token, so it is
| opened under a random client id and carries nothing until that id subscribes to a channel.
| Subscribing and leaving need the customer's token, and every channel says who may follow it.
| Preloaded before the routes: the storefront's catch-all route must come after these.
*/
import transmit from '@adonisjs/transmit/services/main'
import type { HttpContext } from '@adonisjs/core/http'
import { middleware } from '#start/kernel'
import { CUSTOMER_ORDERS_CHANNEL } from '#orders/services/order_updates'

transmit.registerRoutes((route) => {
  if (!route.getPattern().endsWith('__transmit/events')) route.use(middleware.auth())
})

// A customer's order updates are theirs alone.
transmit.authorize<{ uuid: string }>(
  CUSTOMER_ORDERS_CHANNEL,
  (ctx: HttpContext, { uuid }) => ctx.auth.user?.uuid === uuid
)
