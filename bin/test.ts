/*
| Test runner entrypoint: boots the application in test mode and runs Japa.
*/
process.env.NODE_ENV = 'test'
// Timestamps are written and compared in UTC whatever the host's zone.
process.env.TZ = 'UTC'

import 'reflect-metadata'
import { prettyPrintError } from '@adonisjs/core'
import { configure, processCLIArgs, run } from '@japa/runner'
import { createIgnitor } from './ignitor.js'

createIgnitor()
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')

    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      ...config,
      ...{
        setup: runnerHooks.setup,
        teardown: runnerHooks.teardown,
      },
    })
  })
  .run(async (app) => {
    await run()
    // After the run's teardown, and also after a run refused before its first test (an unknown
    // suite, say), which skips the teardown: the app's connections would hold the process open.
    await app.terminate()
  })
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
