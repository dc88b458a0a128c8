import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const PromoController = () => import('#checkout/controllers/promo_controller')
const CheckoutController = () => import('#checkout/controllers/checkout_controller')
const SlotChoicesController = () => import('#checkout/controllers/slot_choices_controller')

router.get('/api/promoLookup', [PromoController, 'lookup']).as('checkout.promoLookup')

// A press on a product remembered as sold out is answered before the router
// (SoldOutShortcutMiddleware, a server middleware), so before the token is checked.
router
  .post('/api/checkout/withprofile', [CheckoutController, 'withProfile'])
  .as('checkout.withProfile')
  .use(middleware.auth({ guards: ['customer'] }))

// Anonymous allowed (the one-step path creates the account); a bearer token, if sent, is used.
router
  .post('/api/checkout/completeuser', [CheckoutController, 'completeUser'])
  .as('checkout.completeUser')

// The buyer's sizes, retailers and price cap of a slot, changed until its release starts.
router
  .post('/api/user/orders/:orderId/choices', [SlotChoicesController, 'change'])
  .as('checkout.slotChoices')
  .use(middleware.auth({ guards: ['customer'] }))
