/*
| Background loops of the web process (preloaded for the "web" environment only; tests and the
| CLI call the same services directly).
*/
import app from '@adonisjs/core/services/app'
import { backgroundWorkers } from '#core/services/background_workers'
import { emailDelivery } from '#notifications/services/email_delivery'
import { smtpConfigured } from '#config/mail'

if (smtpConfigured) {
  backgroundWorkers.register({
    name: 'email-delivery',
    everyMs: 2000,
    run: () => emailDelivery.deliverDue(),
  })
}

backgroundWorkers.start()
app.terminating(() => backgroundWorkers.stop())
