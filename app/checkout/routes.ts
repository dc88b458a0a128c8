import router from '@adonisjs/core/services/router'

const PromoController = () => import('#checkout/controllers/promo_controller')

router.get('/api/promoLookup', [PromoController, 'lookup']).as('checkout.promoLookup')
