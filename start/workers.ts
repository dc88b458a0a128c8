/*
| Background loops of the web process (preloaded for the "web" environment only; tests and the
| CLI call the same services directly): e-mail delivery, the hold worker and the
| card security code retention.
*/
import app from '@adonisjs/core/services/app'
import { backgroundWorkers } from '#core/services/background_workers'
import { emailDelivery } from '#notifications/services/email_delivery'
import { smtpConfigured } from '#config/mail'
import paymentsConfig from '#config/payments'
import { holdWorker } from '#payments/services/hold_worker'
import { cardCodeRetention } from '#profiles/services/card_code_retention'

if (smtpConfigured) {
  backgroundWorkers.register({
    name: 'email-delivery',
    everyMs: 2000,
    run: () => emailDelivery.deliverDue(),
  })
}

// Card security codes past their retention are deleted (also `dropslot cards:purge`).
backgroundWorkers.register({
  name: 'card-code-retention',
  everyMs: 15 * 60 * 1000,
  run: () => cardCodeRetention.purgeDue(),
})

backgroundWorkers.start()
app.terminating(() => backgroundWorkers.stop())

// Places the $1.00 card checks of new orders. HOLD_WORKER_ENABLED=false turns it off, e.g. on
// web processes when a separate process drives it.
if (paymentsConfig.holdWorker.enabled) {
  app.ready(() => holdWorker.start())
  app.terminating(() => holdWorker.stop())
}
