/*
| Boots the Adonis application in console mode for the CLI, so commands call the very services
| the HTTP layer calls, then shuts it down (closing database connections) when they are done.
*/
process.env.TZ = 'UTC'

import 'reflect-metadata'
import type { ApplicationService } from '@adonisjs/core/types'
import { createIgnitor } from '../bin/ignitor.js'

let booted: ApplicationService | null = null

export async function bootApp(): Promise<ApplicationService> {
  if (booted) return booted
  const app = createIgnitor().createApp('console')
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
