/*
| Boots the Adonis application in console mode for the CLI, so commands call the very services
| the HTTP layer calls, then shuts it down (closing database connections) when they are done.
*/
process.env.TZ = 'UTC'

import type { ApplicationService } from '@adonisjs/core/types'

let booted: ApplicationService | null = null
/** An application started by someone else (a test process running commands in itself). */
let hosted: ApplicationService | null = null

/** Commands run in an application that is already running, which they never shut down. */
export function runInApp(app: ApplicationService | null) {
  hosted = app
}

export async function bootApp(): Promise<ApplicationService> {
  if (hosted) return hosted
  if (booted) return booted
  // Loaded here, not at the top: `--help` and bad usage answer without loading the framework.
  await import('reflect-metadata')
  const { createIgnitor } = await import('../bin/ignitor.js')
  const app = createIgnitor().createApp('console')
  await app.init()
  await app.boot()
  await app.start(() => {})
  booted = app
  return app
}

export async function shutdownApp() {
  if (booted) {
    // BullMQ's own Redis connections (a dispatch opens them) would keep the process alive.
    const { jobs } = await import('#core/jobs/jobs')
    await jobs.close()
    // What this command counted for the alerts (a 429 from the gateway, say) is not lost.
    const { signals } = await import('#core/services/signals')
    await signals.flush().catch(() => {})
    await booted.terminate()
  }
  booted = null
}
