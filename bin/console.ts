/*
| Ace entrypoint: boots the application in console mode and runs an ace command.
*/
// Timestamps are written and compared in UTC whatever the host's zone.
process.env.TZ = 'UTC'

import 'reflect-metadata'
import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignitor.js'

createIgnitor()
  .ace()
  .handle(process.argv.splice(2))
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
