/*
| Environment variables are validated here at start-up, so a bad deployment fails at once with a
| clear message instead of at the first request that needs the value.
*/
import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  PORT: Env.schema.number(),
  HOST: Env.schema.string({ format: 'host' }),
  APP_KEY: Env.schema.string(),
  APP_URL: Env.schema.string.optional(),
  LOG_LEVEL: Env.schema.enum.optional([
    'fatal',
    'error',
    'warn',
    'info',
    'debug',
    'trace',
    'silent',
  ] as const),

  DB_CONNECTION: Env.schema.enum.optional(['sqlite', 'mysql'] as const),
  SQLITE_PATH: Env.schema.string.optional(),
  MYSQL_HOST: Env.schema.string.optional({ format: 'host' }),
  MYSQL_PORT: Env.schema.number.optional(),
  MYSQL_USER: Env.schema.string.optional(),
  MYSQL_PASSWORD: Env.schema.string.optional(),
  MYSQL_DB_NAME: Env.schema.string.optional(),
  DB_POOL_MAX: Env.schema.number.optional(),

  REDIS_URL: Env.schema.string.optional(),
  QUEUE_DRIVER: Env.schema.enum.optional(['database', 'bullmq'] as const),
  QUEUE_PREFIX: Env.schema.string.optional(),
  QUEUE_CONCURRENCY: Env.schema.number.optional(),
  GATEWAY_RATE_PER_SECOND: Env.schema.number.optional(),
  TRUSTED_PROXIES: Env.schema.string.optional(),

  PROFILE_TRANSPORT_KEY: (name: string, value?: string) => {
    if (!value || !/^[0-9a-fA-F]{64}$/.test(value)) {
      throw new Error(`${name} must be 64 hex characters (32 bytes)`)
    }
    return value.toLowerCase()
  },
  VAULT_KEYS: Env.schema.string(),

  ACCESS_TOKEN_TTL: Env.schema.string.optional(),
  TOKEN_LAST_USED_FLUSH_MS: Env.schema.number.optional(),
  CARD_CODE_RETENTION_HOURS: Env.schema.number.optional(),
  PASSWORD_RESET_TTL_MINUTES: Env.schema.number.optional(),
  SUPPORT_EMAIL: Env.schema.string.optional(),
  MAIL_FROM: Env.schema.string.optional(),
  SMTP_HOST: Env.schema.string.optional(),
  SMTP_PORT: Env.schema.number.optional(),
  SMTP_SECURE: Env.schema.boolean.optional(),
  SMTP_USERNAME: Env.schema.string.optional(),
  SMTP_PASSWORD: Env.schema.string.optional(),
  EMAIL_MAX_ATTEMPTS: Env.schema.number.optional(),
  RATE_LIMIT_LOGIN_PER_MINUTE: Env.schema.number.optional(),
  RATE_LIMIT_REGISTER_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_FORGOT_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_CARD_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_CARD_IP_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_PROMO_PER_MINUTE: Env.schema.number.optional(),
  RATE_LIMIT_RESET_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_NEWSLETTER_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_CHECKOUT_PER_MINUTE: Env.schema.number.optional(),
  RATE_LIMIT_CHECKOUT_IP_PER_MINUTE: Env.schema.number.optional(),

  // Payments (config/payments.ts): sandbox by default, Stripe when configured.
  PAYMENT_GATEWAY: Env.schema.enum.optional(['sandbox', 'stripe'] as const),
  ALLOW_SANDBOX_IN_PRODUCTION: Env.schema.boolean.optional(),
  INSTALLATION_ID: Env.schema.string.optional(),
  SANDBOX_LATENCY_MS: Env.schema.number.optional(),
  SANDBOX_RPS: Env.schema.number.optional(),
  SANDBOX_WEBHOOK_SECRET: Env.schema.string.optional(),
  STRIPE_SECRET_KEY: Env.schema.string.optional(),
  STRIPE_WEBHOOK_SECRET: Env.schema.string.optional(),
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: Env.schema.number.optional(),
  STRIPE_API_HOST: Env.schema.string.optional(),
  STRIPE_API_PORT: Env.schema.number.optional(),
  STRIPE_API_PROTOCOL: Env.schema.enum.optional(['http', 'https'] as const),
  STRIPE_MAX_NETWORK_RETRIES: Env.schema.number.optional(),
  STRIPE_TIMEOUT_MS: Env.schema.number.optional(),
  HOLD_WORKER_ENABLED: Env.schema.boolean.optional(),
  HOLD_WORKER_POLL_MS: Env.schema.number.optional(),
  HOLD_WORKER_BATCH: Env.schema.number.optional(),
  HOLD_WORKER_STALE_SECONDS: Env.schema.number.optional(),
  HOLD_AUTHENTICATION_WAIT_HOURS: Env.schema.number.optional(),
  SANDBOX_HOLD_EXPIRY_HOURS: Env.schema.number.optional(),
  HOLD_RENEW_BEFORE_HOURS: Env.schema.number.optional(),

  // Third-party pieces of the storefront: public identifiers, all optional, inert when unset.
  MAPS_API_KEY: Env.schema.string.optional(),
  CHAT_WIDGET_ID: Env.schema.string.optional(),
  ANALYTICS_ID: Env.schema.string.optional(),
  SOCIAL_TIMELINE_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  CARD_PROVIDER_PUBLISHABLE_KEY: Env.schema.string.optional(),

  // Draws and waiting rooms (config/draws.ts).
  DRAND_URLS: Env.schema.string.optional(),
  DRAND_TIMEOUT_MS: Env.schema.number.optional(),
  DRAW_CARD_CHECK_WAIT_MINUTES: Env.schema.number.optional(),
  DRAW_FINGERPRINT_KEY: (name: string, value?: string) => {
    if (value === undefined || value === '') return undefined
    if (!/^[0-9a-fA-F]{64}$/.test(value))
      throw new Error(`${name} must be 64 hex characters (32 bytes)`)
    return value.toLowerCase()
  },

  // Release day (app/release/services/release_config.ts).
  CHECKOUT_ENGINE: Env.schema.enum.optional(['simulator', 'webhook', 'files'] as const),
  SIMULATOR_SUCCESS_RATE: Env.schema.number.optional(),
  SIMULATOR_DELAY_MS: Env.schema.number.optional(),
  SIMULATOR_SEED: Env.schema.string.optional(),
  CHECKOUT_WEBHOOK_URL: Env.schema.string.optional(),
  CHECKOUT_TASK_SECRET: Env.schema.string.optional(),
  CHECKOUT_RESULTS_SECRET: Env.schema.string.optional(),
  /** Deprecated: both directions in one secret (development and test only). */
  CHECKOUT_WEBHOOK_SECRET: Env.schema.string.optional(),
  CHECKOUT_WEBHOOK_ATTEMPTS: Env.schema.number.optional(),
  CHECKOUT_BREAKER_FAILURES: Env.schema.number.optional(),
  CHECKOUT_WEBHOOK_BACKOFF_MS: Env.schema.number.optional(),
  CHECKOUT_WEBHOOK_TIMEOUT_MS: Env.schema.number.optional(),
  CHECKOUT_WEBHOOK_TOLERANCE_SECONDS: Env.schema.number.optional(),
  CHECKOUT_FILES_DIR: Env.schema.string.optional(),
  FEE_MAX_ATTEMPTS: Env.schema.number.optional(),
  FEE_RETRY_MINUTES: Env.schema.number.optional(),
  RELEASE_LOCK_TTL_MS: Env.schema.number.optional(),

  // Operations (config/metrics.ts, config/alerts.ts; docs/operations.md).
  METRICS_TOKEN: Env.schema.string.optional(),
  WORKER_METRICS_PORT: Env.schema.number.optional(),
  ALERT_WEBHOOK_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  ALERT_WEBHOOK_FORMAT: Env.schema.enum.optional(['slack', 'discord'] as const),
  ALERT_EMAIL: Env.schema.string.optional(),
  ALERT_CHECK_SECONDS: Env.schema.number.optional(),
  ALERT_QUEUE_AGE_SECONDS: Env.schema.number.optional(),
  ALERT_FAILED_JOBS: Env.schema.number.optional(),
  ALERT_HOLD_GRACE_MINUTES: Env.schema.number.optional(),
  ALERT_HOLD_EXPIRY_HOURS: Env.schema.number.optional(),
  ALERT_GATEWAY_429_PER_MINUTE: Env.schema.number.optional(),
  ALERT_BAD_SIGNATURES_PER_MINUTE: Env.schema.number.optional(),
  ALERT_5XX_PERCENT: Env.schema.number.optional(),
  ALERT_5XX_MIN_ANSWERS: Env.schema.number.optional(),
  ALERT_MAIL_UNREADABLE_MINUTES: Env.schema.number.optional(),
  ALERT_BEACON_UNAVAILABLE_MINUTES: Env.schema.number.optional(),

  // Mail intake (config/mail_intake.ts): the retailer's signed e-mail as the proof of an outcome.
  MAIL_INTAKE_DOMAIN: Env.schema.string.optional(),
  MAIL_INTAKE_IMAP_URL: Env.schema.string.optional(),
  MAIL_INTAKE_IMAP_DONE_FOLDER: Env.schema.string.optional(),
  MAIL_INTAKE_IMAP_POLL_SECONDS: Env.schema.number.optional(),
  MAIL_INTAKE_IMAP_QUARANTINE_FOLDER: Env.schema.string.optional(),
  MAIL_INTAKE_MESSAGE_TIMEOUT_SECONDS: Env.schema.number.optional(),
  MAIL_INTAKE_SMTP_PORT: Env.schema.number.optional(),
  MAIL_INTAKE_SMTP_HOST: Env.schema.string.optional(),
  MAIL_INTAKE_SMTP_MAX_CLIENTS: Env.schema.number.optional(),
  MAIL_INTAKE_SMTP_RATE_PER_MINUTE: Env.schema.number.optional(),
  MAIL_INTAKE_SMTP_IDLE_SECONDS: Env.schema.number.optional(),
  MAIL_INTAKE_CATCH_ALL: Env.schema.string.optional(),
  MAIL_INTAKE_DNS_FILE: Env.schema.string.optional(),
  MAIL_INTAKE_TRUSTED_ARC_SEALERS: Env.schema.string.optional(),
  SUCCESS_EVIDENCE: Env.schema.enum.optional(['either', 'mail', 'bot'] as const),
  SUCCESS_EVIDENCE_WAIT_HOURS: Env.schema.number.optional(),
  REFUND_ON_CANCEL_DAYS: Env.schema.number.optional(),
  MAIL_RETENTION_DAYS: Env.schema.number.optional(),

  // Customer pings (config/pings.ts): web push and Discord.
  VAPID_PUBLIC_KEY: Env.schema.string.optional(),
  VAPID_PRIVATE_KEY: Env.schema.string.optional(),
  VAPID_SUBJECT: Env.schema.string.optional(),
  PUSH_SERVICE_HOSTS: Env.schema.string.optional(),
  DISCORD_API_URL: Env.schema.string.optional({ format: 'url', tld: false }),
})
