/*
| Boots the Adonis application in console mode for the CLI, so commands call the very services
| the HTTP layer calls, then shuts it down (closing database connections) when they are done.
*/
process.env.TZ = 'UTC'

import 'reflect-metadata'
import { Ignitor } from '@adonisjs/core'
import type { ApplicationService } from '@adonisjs/core/types'

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

let booted: ApplicationService | null = null

export async function bootApp(): Promise<ApplicationService> {
  if (booted) return booted
  const ignitor = new Ignitor(APP_ROOT, { importer: IMPORTER })
  const app = ignitor.createApp('console')
  app.booting(async () => {
    await import('#start/env')
  })
  await app.init()
  await app.boot()
  await app.start(() => {})
  booted = app
  return app
}

export async function shutdownApp() {
  if (booted) await booted.terminate()
  booted = null
}
