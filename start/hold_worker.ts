/*
| Starts the hold worker (places the $1.00 card checks of new orders) in the web process only:
| adonisrc.ts loads this preload for the `web` environment, so tests, ace commands and the REPL
| never run it (tests call holdWorker.runOnce() themselves). HOLD_WORKER_ENABLED=false turns it
| off, e.g. on web processes when a separate process drives it.
*/
import app from '@adonisjs/core/services/app'
import paymentsConfig from '#config/payments'
import { holdWorker } from '#payments/services/hold_worker'

if (paymentsConfig.holdWorker.enabled) {
  app.ready(() => holdWorker.start())
  app.terminating(() => holdWorker.stop())
}
