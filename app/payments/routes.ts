import router from '@adonisjs/core/services/router'

const WebhooksController = () => import('#payments/controllers/webhooks_controller')

router.post('/api/hooks/stripe', [WebhooksController, 'stripe']).as('payments.hooks.stripe')
