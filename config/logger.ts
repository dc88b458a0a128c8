import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, targets } from '@adonisjs/core/logger'

/*
| Servers log to stdout. The operator CLI (and ace) log to stderr, so a command's own output on
| stdout (`--json` included) stays clean while the operations log streams beside it.
*/
const destination = app.getEnvironment() === 'console' ? 2 : 1

/** pino-pretty is a dev dependency: a build installed with `--omit=dev` logs plain JSON. */
function prettyInstalled() {
  try {
    import.meta.resolve('pino-pretty')
    return true
  } catch {
    return false
  }
}
const pretty = !app.inProduction && prettyInstalled()

const loggerConfig = defineConfig({
  default: 'app',

  loggers: {
    app: {
      enabled: true,
      name: 'dropslot',
      level: env.get('LOG_LEVEL', app.inTest ? 'silent' : 'info'),
      // Card data and secrets never reach a log line, even if a caller logs a whole object.
      redact: {
        paths: [
          'password',
          '*.password',
          'number',
          '*.number',
          'cvc',
          '*.cvc',
          'code',
          '*.card',
          'card',
          'eProfile',
          '*.eProfile',
          'encrypted',
          '*.encrypted',
          'acoDataPayload',
          '*.acoDataPayload',
          'token',
          '*.token',
          'req.headers.authorization',
        ],
        censor: '[redacted]',
      },
      transport: {
        targets: targets()
          .pushIf(pretty, targets.pretty({ destination }))
          .pushIf(!pretty, targets.file({ destination }))
          .toArray(),
      },
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
