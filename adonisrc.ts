import { defineConfig } from '@adonisjs/core/app'

/**
 * Providers only the HTTP server uses (headers, static files, rate limits, policies on `ctx`):
 * ace commands and the operator CLI start without them.
 */
const HTTP_ONLY: ('web' | 'test' | 'repl')[] = ['web', 'test', 'repl']

export default defineConfig({
  commands: [() => import('@adonisjs/core/commands'), () => import('@adonisjs/lucid/commands')],

  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    {
      file: () => import('@adonisjs/core/providers/repl_provider'),
      environment: ['repl', 'test'],
    },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    { file: () => import('@adonisjs/cors/cors_provider'), environment: HTTP_ONLY },
    { file: () => import('@adonisjs/shield/shield_provider'), environment: HTTP_ONLY },
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    () => import('@adonisjs/redis/redis_provider'),
    () => import('@adonisjs/lock/lock_provider'),
    { file: () => import('@adonisjs/bouncer/bouncer_provider'), environment: HTTP_ONLY },
    { file: () => import('@adonisjs/limiter/limiter_provider'), environment: HTTP_ONLY },
    { file: () => import('@adonisjs/static/static_provider'), environment: HTTP_ONLY },
    () => import('@adonisjs/mail/mail_provider'),
    () => import('@adonisjs/transmit/transmit_provider'),
  ],

  preloads: [
    // `ctx.bouncer`: who may do what (policies), made on first use in a request.
    () => import('#start/redis'),
    () => import('#start/authorization'),
    () => import('#start/transmit'),
    () => import('#start/routes'),
    () => import('#start/kernel'),
    () => import('#start/jobs'),
    () => import('#start/outcome_evidence'),
    { file: () => import('#start/workers'), environment: ['web'] },
  ],

  tests: {
    suites: [
      {
        files: ['tests/unit/**/*.spec(.ts|.js)'],
        name: 'unit',
        timeout: 5000,
      },
      {
        files: ['tests/functional/**/*.spec(.ts|.js)'],
        name: 'functional',
        timeout: 60000,
      },
      {
        // Playwright + Debian Chromium against the real server: `npm run test:browser`.
        files: ['tests/browser/**/*.spec(.ts|.js)'],
        name: 'browser',
        timeout: 120000,
      },
    ],
    forceExit: false,
  },

  metaFiles: [
    { pattern: 'database/seeders/data/**', reloadServer: false },
    // The operator CLI's launcher, so `npx dropslot` works from the production build.
    { pattern: 'cli/dropslot.js', reloadServer: false },
  ],
})
