/*
| HTTP server entrypoint: boots the application and starts the HTTP server.
*/
// Timestamps are written and compared in UTC whatever the host's zone.
process.env.TZ = 'UTC'

import 'reflect-metadata'
import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignitor.js'

createIgnitor()
  .httpServer()
  .start()
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
