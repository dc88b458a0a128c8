/*
| Environment variables are validated here at start-up, so a bad deployment fails at once with a
| clear message instead of at the first request that needs the value.
*/
import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  /**
   * `development`, `production` or `test`: production refuses demo data, the sandbox gateway
   * without ALLOW_SANDBOX_IN_PRODUCTION and published secrets.
   */
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  /** Where the server listens (with HOST); `npm start`'s .env sets 3333 and 0.0.0.0. */
  PORT: Env.schema.number(),
  HOST: Env.schema.string({ format: 'host' }),
  /** The framework's secret (signed cookies and values); `npm start` generates it into .env. */
  APP_KEY: Env.schema.string(),
  /** The base of links in e-mails and of the first-run banner. */
  APP_URL: Env.schema.string.optional(),
  /** The log's level; the CLI logs at `warn` unless run with --verbose. */
  LOG_LEVEL: Env.schema.enum.optional([
    'fatal',
    'error',
    'warn',
    'info',
    'debug',
    'trace',
    'silent',
  ] as const),

  /**
   * `sqlite` (embedded, the file at SQLITE_PATH, tmp/dropslot.sqlite3 by default) or `mysql`
   * (MariaDB/MySQL through mysql2).
   */
  DB_CONNECTION: Env.schema.enum.optional(['sqlite', 'mysql'] as const),
  SQLITE_PATH: Env.schema.string.optional(),
  /**
   * SQLite: how often (ms) the web process copies the write-ahead log into the database file
   * from a thread of its own, so requests never wait on that copy's disk sync; 0 leaves it
   * to the writing request, as SQLite does by default.
   */
  SQLITE_CHECKPOINT_EVERY_MS: Env.schema.number.optional(),
  /**
   * The MariaDB/MySQL connection: MYSQL_HOST, MYSQL_PORT, MYSQL_USER, MYSQL_PASSWORD and
   * MYSQL_DB_NAME (the database is `dropslot_test` under the tests).
   */
  MYSQL_HOST: Env.schema.string.optional({ format: 'host' }),
  MYSQL_PORT: Env.schema.number.optional(),
  MYSQL_USER: Env.schema.string.optional(),
  MYSQL_PASSWORD: Env.schema.string.optional(),
  MYSQL_DB_NAME: Env.schema.string.optional(),
  /** The MySQL connection pool's size. */
  DB_POOL_MAX: Env.schema.number.optional(),

  /**
   * e.g. `redis://127.0.0.1:6379`: rate limits use Redis so several web processes share them
   * (memory otherwise), live order updates reach every web process through its pub/sub, and BullMQ
   * uses it with QUEUE_DRIVER=bullmq.
   */
  REDIS_URL: Env.schema.string.optional(),
  /**
   * `database`: background jobs run inside the web process and the tables hold the work (nothing
   * else to install). `bullmq`: jobs run on BullMQ workers (`dropslot worker`), which needs
   * REDIS_URL.
   */
  QUEUE_DRIVER: Env.schema.enum.optional(['database', 'bullmq'] as const),
  /**
   * The start of every key this installation keeps in Redis: its queues, release and money
   * locks, rate limits and gateway budgets. Installations sharing one Redis each need their own.
   */
  QUEUE_PREFIX: Env.schema.string.optional(),
  /** Jobs a worker runs at once per queue. */
  QUEUE_CONCURRENCY: Env.schema.number.optional(),
  /**
   * Payment gateway calls per second from the job queue, for all workers together (Stripe test
   * mode: 20, live: about 90).
   */
  GATEWAY_RATE_PER_SECOND: Env.schema.number.optional(),
  /**
   * BullMQ: how long a job's lock lasts without its worker renewing it, and how often workers
   * look for lapsed ones: a killed worker's jobs are taken over within twice this. At least 1000.
   */
  QUEUE_STALLED_AFTER_MS: Env.schema.number.optional(),
  /**
   * Addresses or CIDR ranges of your load balancers (`10.0.0.0/8,127.0.0.1`; `loopback`,
   * `uniquelocal` name those ranges): only they may set the client address with X-Forwarded-For.
   * Unset, the forwarded header is ignored, so a client cannot rotate it to step around the per-IP
   * limits.
   */
  TRUSTED_PROXIES: Env.schema.string.optional(),

  /**
   * 64 hex characters: the key of the profile and card transport envelope; `npm start` generates
   * it. Public by design: the storefront fetches it from GET /api/config.
   */
  PROFILE_TRANSPORT_KEY: (name: string, value?: string) => {
    if (!value || !/^[0-9a-fA-F]{64}$/.test(value)) {
      throw new Error(`${name} must be 64 hex characters (32 bytes)`)
    }
    return value.toLowerCase()
  },
  /**
   * `id:64hex[,oldId:64hex]`: server-only keys that encrypt card data at rest (AES-256-GCM); `npm
   * start` generates the first. The first key encrypts; older keys still decrypt, so keys rotate by
   * prepending a new one, then `dropslot vault:rotate`.
   */
  VAULT_KEYS: Env.schema.string(),

  /**
   * The lifetime of a customer's bearer token (a staff session ends after 12 hours, or 15 idle
   * minutes).
   */
  ACCESS_TOKEN_TTL: Env.schema.string.optional(),
  /** How often the tokens' last-use times (kept to the minute) are written, in one batch. */
  TOKEN_LAST_USED_FLUSH_MS: Env.schema.number.optional(),
  /**
   * How long a profile's card security code is kept after it was entered, once no order needs it.
   */
  CARD_CODE_RETENTION_HOURS: Env.schema.number.optional(),
  /** The lifetime of a password-reset link. */
  PASSWORD_RESET_TTL_MINUTES: Env.schema.number.optional(),
  /** The support address shown in e-mails and pages. */
  SUPPORT_EMAIL: Env.schema.string.optional(),
  /** The sender of every e-mail, `Name <address>`. */
  MAIL_FROM: Env.schema.string.optional(),
  /**
   * The SMTP server e-mail is delivered through (retried with back-off): SMTP_HOST and SMTP_PORT;
   * SMTP_SECURE for TLS from the start; SMTP_USERNAME and SMTP_PASSWORD when it asks for a login.
   * Without SMTP_HOST, outside production, e-mail goes to the console's mailbox (/admin/mailbox);
   * production refuses to start without it.
   */
  SMTP_HOST: Env.schema.string.optional(),
  SMTP_PORT: Env.schema.number.optional(),
  SMTP_SECURE: Env.schema.boolean.optional(),
  SMTP_USERNAME: Env.schema.string.optional(),
  SMTP_PASSWORD: Env.schema.string.optional(),
  /** Tries per e-mail before it is given up as failed. */
  EMAIL_MAX_ATTEMPTS: Env.schema.number.optional(),
  /**
   * With the `database` driver, the web process delivers e-mail (and pings);
   * EMAIL_WORKER_ENABLED=false leaves them to a `dropslot worker` process.
   */
  EMAIL_WORKER_ENABLED: Env.schema.boolean.optional(),
  /**
   * Sign-ins (RATE_LIMIT_LOGIN_PER_MINUTE), registrations (RATE_LIMIT_REGISTER_PER_HOUR) and
   * password-reset requests (RATE_LIMIT_FORGOT_PER_HOUR), per IP and per e-mail address.
   */
  RATE_LIMIT_LOGIN_PER_MINUTE: Env.schema.number.optional(),
  RATE_LIMIT_REGISTER_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_FORGOT_PER_HOUR: Env.schema.number.optional(),
  /**
   * Card tokens and card saves per customer (RATE_LIMIT_CARD_PER_HOUR) and per IP
   * (RATE_LIMIT_CARD_IP_PER_HOUR), against card testing: "Too many card attempts. Please wait N
   * minutes and try again."
   */
  RATE_LIMIT_CARD_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_CARD_IP_PER_HOUR: Env.schema.number.optional(),
  /**
   * Promo code lookups per IP (RATE_LIMIT_PROMO_PER_MINUTE), reset-token attempts per IP
   * (RATE_LIMIT_RESET_PER_HOUR), newsletter sign-ups per IP and per e-mail
   * (RATE_LIMIT_NEWSLETTER_PER_HOUR).
   */
  RATE_LIMIT_PROMO_PER_MINUTE: Env.schema.number.optional(),
  RATE_LIMIT_RESET_PER_HOUR: Env.schema.number.optional(),
  RATE_LIMIT_NEWSLETTER_PER_HOUR: Env.schema.number.optional(),
  /**
   * Checkouts per customer (RATE_LIMIT_CHECKOUT_PER_MINUTE) and per IP
   * (RATE_LIMIT_CHECKOUT_IP_PER_MINUTE).
   */
  RATE_LIMIT_CHECKOUT_PER_MINUTE: Env.schema.number.optional(),
  RATE_LIMIT_CHECKOUT_IP_PER_MINUTE: Env.schema.number.optional(),

  // Payments (config/payments.ts): sandbox by default, Stripe when configured.
  /**
   * `sandbox` (built in, offline) or `stripe` (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET).
   * Production refuses to start unless it is set on purpose.
   */
  PAYMENT_GATEWAY: Env.schema.enum.optional(['sandbox', 'stripe'] as const),
  /**
   * `true` lets a production install run on the sandbox gateway (demos, load tests: no real money
   * moves); production refuses PAYMENT_GATEWAY=sandbox without it.
   */
  ALLOW_SANDBOX_IN_PRODUCTION: Env.schema.boolean.optional(),
  /**
   * This install's id (8-64 letters, digits, `_`), part of every payment idempotency key; never
   * change it once payments were made. Required in production; development and test derive one from
   * APP_KEY when unset.
   */
  INSTALLATION_ID: Env.schema.string.optional(),
  /**
   * The sandbox gateway's simulated round trip (SANDBOX_LATENCY_MS) and rate limit in calls per
   * second (SANDBOX_RPS).
   */
  SANDBOX_LATENCY_MS: Env.schema.number.optional(),
  SANDBOX_RPS: Env.schema.number.optional(),
  /**
   * Signs and verifies the sandbox gateway's webhooks (and the passes of its 3-D Secure page's
   * links). Production refuses to start without one, or with a published or short (< 24 characters)
   * one; development and test derive one from APP_KEY when unset.
   */
  SANDBOX_WEBHOOK_SECRET: Env.schema.string.optional(),
  /**
   * Stripe (PAYMENT_GATEWAY=stripe): STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET;
   * STRIPE_WEBHOOK_TOLERANCE_SECONDS, how old a webhook's timestamp may be; STRIPE_API_HOST,
   * STRIPE_API_PORT and STRIPE_API_PROTOCOL, where its API is (a stand-in in tests);
   * STRIPE_MAX_NETWORK_RETRIES and STRIPE_TIMEOUT_MS per call.
   */
  STRIPE_SECRET_KEY: Env.schema.string.optional(),
  STRIPE_WEBHOOK_SECRET: Env.schema.string.optional(),
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: Env.schema.number.optional(),
  STRIPE_API_HOST: Env.schema.string.optional(),
  STRIPE_API_PORT: Env.schema.number.optional(),
  STRIPE_API_PROTOCOL: Env.schema.enum.optional(['http', 'https'] as const),
  STRIPE_MAX_NETWORK_RETRIES: Env.schema.number.optional(),
  STRIPE_TIMEOUT_MS: Env.schema.number.optional(),
  /**
   * With the `database` driver, the web process places the $1.00 holds; HOLD_WORKER_ENABLED=false
   * leaves them to a `dropslot worker` process. HOLD_WORKER_POLL_MS, HOLD_WORKER_BATCH and
   * HOLD_WORKER_STALE_SECONDS tune that worker: how often it looks, how many it takes, when a claim
   * is stale.
   */
  HOLD_WORKER_ENABLED: Env.schema.boolean.optional(),
  HOLD_WORKER_POLL_MS: Env.schema.number.optional(),
  HOLD_WORKER_BATCH: Env.schema.number.optional(),
  HOLD_WORKER_STALE_SECONDS: Env.schema.number.optional(),
  /**
   * How long after the order a $1.00 check the bank holds back for 3-D Secure may wait for the
   * customer (never past the product's release).
   */
  HOLD_AUTHENTICATION_WAIT_HOURS: Env.schema.number.optional(),
  /**
   * The sandbox gateway lets an uncaptured hold lapse this long after it was placed, as card
   * networks do (decimals allowed: `0.05` is three minutes, for demos).
   */
  SANDBOX_HOLD_EXPIRY_HOURS: Env.schema.number.optional(),
  /**
   * A waiting order's $1.00 hold is renewed (a new hold round placed, the old one released) this
   * long before its authorization lapses, and at the latest half way through a shorter lifetime.
   */
  HOLD_RENEW_BEFORE_HOURS: Env.schema.number.optional(),

  // Third-party pieces of the storefront: public identifiers, all optional, inert when unset.
  /**
   * The storefront's third parties (public identifiers), inert when unset: MAPS_API_KEY,
   * CHAT_WIDGET_ID, ANALYTICS_ID, SOCIAL_TIMELINE_URL and CARD_PROVIDER_PUBLISHABLE_KEY.
   */
  MAPS_API_KEY: Env.schema.string.optional(),
  CHAT_WIDGET_ID: Env.schema.string.optional(),
  ANALYTICS_ID: Env.schema.string.optional(),
  SOCIAL_TIMELINE_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  CARD_PROVIDER_PUBLISHABLE_KEY: Env.schema.string.optional(),

  // Draws and waiting rooms (config/draws.ts).
  /**
   * The drand HTTP relays asked, in order, for a draw's quicknet round (every answer's signature is
   * verified); `off`: none, draws wait for `dropslot draw:run --beacon FILE`.
   */
  DRAND_URLS: Env.schema.string.optional(),
  /** How long one relay may take. */
  DRAND_TIMEOUT_MS: Env.schema.number.optional(),
  /** How long past its round a draw waits for card checks still being placed. */
  DRAW_CARD_CHECK_WAIT_MINUTES: Env.schema.number.optional(),
  /**
   * 64 hex characters: the key of the hashes that make two draw entries (or two places in a line)
   * the same person's. Its own secret, never derived from APP_KEY; production refuses to start
   * without it (outside production a .env made before it existed uses a fixed development key).
   */
  DRAW_FINGERPRINT_KEY: (name: string, value?: string) => {
    if (value === undefined || value === '') return undefined
    if (!/^[0-9a-fA-F]{64}$/.test(value))
      throw new Error(`${name} must be 64 hex characters (32 bytes)`)
    return value.toLowerCase()
  },

  // Release day (app/release/services/release_config.ts).
  /** Release day's checkout engine: `simulator`, `webhook` or `files`. */
  CHECKOUT_ENGINE: Env.schema.enum.optional(['simulator', 'webhook', 'files'] as const),
  /**
   * The simulator engine's share of successes (SIMULATOR_SUCCESS_RATE), its delay per order
   * (SIMULATOR_DELAY_MS) and its seed (SIMULATOR_SEED: the same seed gives the same outcomes).
   */
  SIMULATOR_SUCCESS_RATE: Env.schema.number.optional(),
  SIMULATOR_DELAY_MS: Env.schema.number.optional(),
  SIMULATOR_SEED: Env.schema.string.optional(),
  /** Where the `webhook` engine POSTs each task. */
  CHECKOUT_WEBHOOK_URL: Env.schema.string.optional(),
  /**
   * Signs every task sent to the checkout bot (X-Dropslot-Signature). At least 32 random bytes (64
   * hex or 43 base64url characters); production refuses it missing, shorter, patterned, published
   * or equal to the results secret.
   */
  CHECKOUT_TASK_SECRET: Env.schema.string.optional(),
  /**
   * Verifies every result the bot sends back (POST /api/hooks/checkout-results); the same rules,
   * and never the task secret. Unset outside production: callbacks answer 503
   * `checkout_hooks_disabled`.
   */
  CHECKOUT_RESULTS_SECRET: Env.schema.string.optional(),
  /**
   * Deprecated: the single secret both directions used before. Outside production it still stands
   * in for whichever of the two above is unset (a warning is logged); production refuses to start
   * on it.
   */
  CHECKOUT_WEBHOOK_SECRET: Env.schema.string.optional(),
  /** Tries per task sent to the bot. */
  CHECKOUT_WEBHOOK_ATTEMPTS: Env.schema.number.optional(),
  /** Orders in a row the engine could not be reached for before a run stops. */
  CHECKOUT_BREAKER_FAILURES: Env.schema.number.optional(),
  /**
   * The wait between two tries of a task (CHECKOUT_WEBHOOK_BACKOFF_MS), the time one try may take
   * (CHECKOUT_WEBHOOK_TIMEOUT_MS) and how old a signed result may be
   * (CHECKOUT_WEBHOOK_TOLERANCE_SECONDS).
   */
  CHECKOUT_WEBHOOK_BACKOFF_MS: Env.schema.number.optional(),
  CHECKOUT_WEBHOOK_TIMEOUT_MS: Env.schema.number.optional(),
  CHECKOUT_WEBHOOK_TOLERANCE_SECONDS: Env.schema.number.optional(),
  /** The `files` engine's folder of tasks. */
  CHECKOUT_FILES_DIR: Env.schema.string.optional(),
  /**
   * Tries of a declined fee (FEE_MAX_ATTEMPTS), and the minutes between two (FEE_RETRY_MINUTES).
   */
  FEE_MAX_ATTEMPTS: Env.schema.number.optional(),
  FEE_RETRY_MINUTES: Env.schema.number.optional(),
  /**
   * How long a release run's lock lasts without a heartbeat (a dead run's lock frees itself after
   * it).
   */
  RELEASE_LOCK_TTL_MS: Env.schema.number.optional(),

  // Operations (config/metrics.ts, config/alerts.ts; docs/operations.md).
  /** Turns GET /metrics on, for `Authorization: Bearer <token>` only (404 without it). */
  METRICS_TOKEN: Env.schema.string.optional(),
  /** A worker's own /metrics listener (`dropslot worker --metrics-port` overrides it). */
  WORKER_METRICS_PORT: Env.schema.number.optional(),
  /**
   * Where incidents are posted; Discord's JSON for a Discord webhook URL (or
   * ALERT_WEBHOOK_FORMAT=discord), Slack's `{text}` otherwise.
   */
  ALERT_WEBHOOK_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  ALERT_WEBHOOK_FORMAT: Env.schema.enum.optional(['slack', 'discord'] as const),
  /** Who is e-mailed each incident's opening and resolution. */
  ALERT_EMAIL: Env.schema.string.optional(),
  /** How often the one alert check runs. */
  ALERT_CHECK_SECONDS: Env.schema.number.optional(),
  /**
   * A queue's oldest job older than ALERT_QUEUE_AGE_SECONDS; more failed jobs than
   * ALERT_FAILED_JOBS; a waiting order without a placed card check ALERT_HOLD_GRACE_MINUTES after
   * it was placed.
   */
  ALERT_QUEUE_AGE_SECONDS: Env.schema.number.optional(),
  ALERT_FAILED_JOBS: Env.schema.number.optional(),
  ALERT_HOLD_GRACE_MINUTES: Env.schema.number.optional(),
  /**
   * A waiting order's $1.00 hold lapsing within this many hours while its renewal is overdue by
   * ALERT_HOLD_GRACE_MINUTES.
   */
  ALERT_HOLD_EXPIRY_HOURS: Env.schema.number.optional(),
  /**
   * More gateway 429 answers in a minute than ALERT_GATEWAY_429_PER_MINUTE;
   * ALERT_BAD_SIGNATURES_PER_MINUTE bad webhook signatures in a minute.
   */
  ALERT_GATEWAY_429_PER_MINUTE: Env.schema.number.optional(),
  ALERT_BAD_SIGNATURES_PER_MINUTE: Env.schema.number.optional(),
  /**
   * 5xx answers above ALERT_5XX_PERCENT of a minute's answers, once the minute has
   * ALERT_5XX_MIN_ANSWERS.
   */
  ALERT_5XX_PERCENT: Env.schema.number.optional(),
  ALERT_5XX_MIN_ANSWERS: Env.schema.number.optional(),
  /** The mail intake's mailbox failing to be read this long opens `mail_unreadable`. */
  ALERT_MAIL_UNREADABLE_MINUTES: Env.schema.number.optional(),
  /**
   * A draw's or a waiting room's committed beacon round due this long and still not fetched opens
   * `beacon_unavailable`.
   */
  ALERT_BEACON_UNAVAILABLE_MINUTES: Env.schema.number.optional(),

  // Mail intake (config/mail_intake.ts): the retailer's signed e-mail as the proof of an outcome.
  /**
   * The mail intake's domain (e.g. `in.dropslot.example`): each order handed to a bot gets its own
   * address on it as the profile's e-mail. Unset, nothing changes.
   */
  MAIL_INTAKE_DOMAIN: Env.schema.string.optional(),
  /**
   * The catch-all mailbox, `imap://user:pass@host:143/INBOX` or `imaps://...:993/INBOX`, read every
   * MAIL_INTAKE_IMAP_POLL_SECONDS, or in IDLE by `dropslot mail:listen`; a handled message is moved
   * to MAIL_INTAKE_IMAP_DONE_FOLDER.
   */
  MAIL_INTAKE_IMAP_URL: Env.schema.string.optional(),
  MAIL_INTAKE_IMAP_DONE_FOLDER: Env.schema.string.optional(),
  MAIL_INTAKE_IMAP_POLL_SECONDS: Env.schema.number.optional(),
  /**
   * The folder a message the intake failed on, timed out on or could not take (over 5 MB) is moved
   * to, never to be read again.
   */
  MAIL_INTAKE_IMAP_QUARANTINE_FOLDER: Env.schema.string.optional(),
  /** The intake's time over one message: IMAP quarantines it, SMTP answers 451. */
  MAIL_INTAKE_MESSAGE_TIMEOUT_SECONDS: Env.schema.number.optional(),
  /**
   * The inbound SMTP listener of `dropslot mail:listen` (MX pointed at Dropslot):
   * MAIL_INTAKE_SMTP_PORT on MAIL_INTAKE_SMTP_HOST.
   */
  MAIL_INTAKE_SMTP_PORT: Env.schema.number.optional(),
  MAIL_INTAKE_SMTP_HOST: Env.schema.string.optional(),
  /**
   * The SMTP listener's clients at once (MAIL_INTAKE_SMTP_MAX_CLIENTS, then 421), connections plus
   * messages per client address a minute (MAIL_INTAKE_SMTP_RATE_PER_MINUTE, then 421), and the
   * silence after which a client is cut off (MAIL_INTAKE_SMTP_IDLE_SECONDS).
   */
  MAIL_INTAKE_SMTP_MAX_CLIENTS: Env.schema.number.optional(),
  MAIL_INTAKE_SMTP_RATE_PER_MINUTE: Env.schema.number.optional(),
  MAIL_INTAKE_SMTP_IDLE_SECONDS: Env.schema.number.optional(),
  /**
   * Comma-separated addresses the SMTP listener takes besides the orders' own (their mail lands in
   * review); any other recipient is refused with 550.
   */
  MAIL_INTAKE_CATCH_ALL: Env.schema.string.optional(),
  /**
   * A JSON file of TXT records (`{"sel._domainkey.kith.com": "v=DKIM1; k=rsa; p=..."}`) used
   * instead of DNS for DKIM keys (installs without outside DNS, tests, the demo).
   */
  MAIL_INTAKE_DNS_FILE: Env.schema.string.optional(),
  /**
   * Comma-separated ARC sealer domains (e.g. `google.com` for a Gmail catch-all that forwards)
   * whose ARC chain counts for forwarded mail whose DKIM broke; empty: only the message's own DKIM
   * counts.
   */
  MAIL_INTAKE_TRUSTED_ARC_SEALERS: Env.schema.string.optional(),
  /**
   * `either`: the bot's result or the retailer's e-mail succeeds an order; `mail`: a bot's success
   * leaves the order processing and its fee waits for the retailer's e-mail (flagged after
   * SUCCESS_EVIDENCE_WAIT_HOURS); `bot`: the retailer's confirmations are recorded and never
   * succeed an order (its cancellations still refund).
   */
  SUCCESS_EVIDENCE: Env.schema.enum.optional(['either', 'mail', 'bot'] as const),
  SUCCESS_EVIDENCE_WAIT_HOURS: Env.schema.number.optional(),
  /**
   * A retailer's signed cancellation within this many days of the success refunds the fee; later,
   * it goes to review.
   */
  REFUND_ON_CANCEL_DAYS: Env.schema.number.optional(),
  /**
   * The raw message is kept sealed this long, then deleted (its hash, sender, DKIM result and
   * action stay).
   */
  MAIL_RETENTION_DAYS: Env.schema.number.optional(),

  // Customer pings (config/pings.ts): web push and Discord.
  /**
   * Web push keys, VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (`npm start` generates them into .env);
   * unset, the storefront offers no push.
   */
  VAPID_PUBLIC_KEY: Env.schema.string.optional(),
  VAPID_PRIVATE_KEY: Env.schema.string.optional(),
  /** Who push services may contact about our messages (the support address by default). */
  VAPID_SUBJECT: Env.schema.string.optional(),
  /**
   * Hosts a push subscription's endpoint may be on (`*.` for subdomains); anything else is refused.
   */
  PUSH_SERVICE_HOSTS: Env.schema.string.optional(),
  /** Where customers' Discord pings are posted (a stand-in in tests). */
  DISCORD_API_URL: Env.schema.string.optional({ format: 'url', tld: false }),
})
