import router from '@adonisjs/core/services/router'
import paymentsConfig from '#config/payments'
import { middleware } from '#start/kernel'

const WebhooksController = () => import('#payments/controllers/webhooks_controller')
const HoldAuthenticationController = () =>
  import('#payments/controllers/hold_authentication_controller')
const SandboxChallengesController = () =>
  import('#payments/controllers/sandbox_challenges_controller')

router.post('/api/hooks/stripe', [WebhooksController, 'stripe']).as('payments.hooks.stripe')

router
  .group(() => {
    router
      .post('/api/user/orders/:orderId/hold/authenticate', [
        HoldAuthenticationController,
        'authenticate',
      ])
      .as('authenticate')
    router
      .post('/api/user/orders/:orderId/hold/confirm', [HoldAuthenticationController, 'confirm'])
      .as('confirm')
  })
  .as('payments.hold')
  .use(middleware.auth())

// The sandbox's 3-D Secure stand-in; with Stripe, Stripe.js shows the bank's own challenge.
if (paymentsConfig.gateway === 'sandbox') {
  router
    .get('/sandbox/3ds/:id', [SandboxChallengesController, 'show'])
    .as('payments.sandbox.challenge')
  router
    .post('/sandbox/3ds/:id', [SandboxChallengesController, 'answer'])
    .as('payments.sandbox.challenge.answer')
}
