import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const NewsletterController = () => import('#notifications/controllers/newsletter_controller')
const PingsController = () => import('#notifications/controllers/pings_controller')

router.get('/api/addEmail', [NewsletterController, 'subscribe']).as('notifications.subscribe')

// The customer's release-day pings (web push in their browsers, their own Discord webhook).
router
  .group(() => {
    router.get('/', [PingsController, 'show']).as('show')
    router.post('/push', [PingsController, 'subscribe']).as('subscribe')
    router.post('/push/delete', [PingsController, 'unsubscribe']).as('unsubscribe')
    router.put('/discord', [PingsController, 'setDiscord']).as('discord.set')
    router.delete('/discord', [PingsController, 'clearDiscord']).as('discord.clear')
    router.post('/test', [PingsController, 'test']).as('test')
  })
  .prefix('/api/user/pings')
  .as('notifications.pings')
  .use(middleware.auth())
