/*
| The one place that knows how to create the application: server, ace, tests and the operator CLI
| all start from here, with the environment validated while the app boots.
*/
import { Ignitor } from '@adonisjs/core'
import { stopSignalClaimed } from '#core/services/stop_signal'

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

export function createIgnitor() {
  return new Ignitor(APP_ROOT, { importer: IMPORTER }).tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    // A worker or a watch loop takes the signal itself and terminates once its work is done.
    app.listen('SIGTERM', () => !stopSignalClaimed() && app.terminate())
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
}
