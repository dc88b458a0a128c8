/*
| HTTP server entrypoint: boots the application and starts the HTTP server.
*/
// Timestamps are written and compared in UTC whatever the host's zone.
process.env.TZ = 'UTC'

import 'reflect-metadata'
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'
import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignitor.js'

createIgnitor()
  .httpServer()
  .start((handle) =>
    createServer((request, response) => {
      // Every request's logs carry its id. The framework's own ids are cuid2 (a SHA-3 per
      // request, a tenth of the CPU of GET /health); a random UUID is as unique and far cheaper.
      request.headers['x-request-id'] ??= randomUUID()
      return handle(request, response)
    })
  )
  .then(async () => {
    // `npm start` asks for the first-run banner: the URLs and demo logins, once listening.
    if (!process.argv.includes('--banner')) return
    const { firstRunBanner } = await import('#core/services/first_run_banner')
    process.stdout.write(`\n${firstRunBanner().join('\n')}\n\n`)
  })
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
