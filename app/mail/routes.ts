/*
| Mail module routes: the console's Mail page, admins only (like every /api/admin route).
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const MailMessagesController = () => import('#mail/controllers/mail_messages_controller')
const publicId = router.matchers.uuid()

router
  .group(() => {
    router.get('/mail-status', [MailMessagesController, 'status']).as('mail.status')
    router.get('/mail-messages', [MailMessagesController, 'index']).as('mail.index')
    router
      .get('/mail-messages/:id', [MailMessagesController, 'show'])
      .where('id', publicId)
      .as('mail.show')
    router
      .post('/mail-messages/:id/assign', [MailMessagesController, 'assign'])
      .where('id', publicId)
      .use(middleware.jsonOnly())
      .as('mail.assign')
    router
      .post('/mail-messages/:id/dismiss', [MailMessagesController, 'dismiss'])
      .where('id', publicId)
      .as('mail.dismiss')
  })
  .prefix('/api/admin')
  .as('admin')
  .use(middleware.admin())
