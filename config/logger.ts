import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, targets } from '@adonisjs/core/logger'

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
          .pushIf(!app.inProduction, targets.pretty())
          .pushIf(app.inProduction, targets.file({ destination: 1 }))
          .toArray(),
      },
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
