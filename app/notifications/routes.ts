import router from '@adonisjs/core/services/router'

const NewsletterController = () => import('#notifications/controllers/newsletter_controller')

router.get('/api/addEmail', [NewsletterController, 'subscribe']).as('notifications.subscribe')
