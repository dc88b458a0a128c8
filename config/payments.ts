import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { assertPaymentsSettings, resolvePaymentsSettings } from '#payments/settings'

/*
| Payments: which gateway, its settings, and the hold worker. Everything has a default that
| works offline (the sandbox gateway); the Stripe gateway needs STRIPE_SECRET_KEY and
| STRIPE_WEBHOOK_SECRET. INSTALLATION_ID and SANDBOX_WEBHOOK_SECRET are per install (generated
| into .env on first run): production refuses to start without them, and without PAYMENT_GATEWAY
| set on purpose (sandbox only with ALLOW_SANDBOX_IN_PRODUCTION=true; app/payments/settings.ts).
*/
const gateway = env.get('PAYMENT_GATEWAY', 'sandbox')

const settings = resolvePaymentsSettings({
  nodeEnv: env.get('NODE_ENV'),
  gateway,
  gatewayExplicit: env.get('PAYMENT_GATEWAY') !== undefined,
  allowSandboxInProduction: env.get('ALLOW_SANDBOX_IN_PRODUCTION', false),
  appKey: env.get('APP_KEY'),
  installationId: env.get('INSTALLATION_ID'),
  sandboxWebhookSecret: env.get('SANDBOX_WEBHOOK_SECRET'),
  stripeSecretKey: env.get('STRIPE_SECRET_KEY'),
  stripeWebhookSecret: env.get('STRIPE_WEBHOOK_SECRET'),
})
assertPaymentsSettings(settings)

const paymentsConfig = {
  gateway,
  currency: 'usd',
  /** Part of every gateway idempotency key, so keys never repeat across installs or resets. */
  installationId: settings.installationId,
  /** The card check placed when a slot is bought: never captured, released when the order ends. */
  holdAmountCents: 100,
  /** Webhook signatures older or newer than this are refused (replay protection). */
  webhookToleranceSeconds: env.get('STRIPE_WEBHOOK_TOLERANCE_SECONDS', 300),

  sandbox: {
    /** Added to every sandbox call, so load runs see a provider's round trip. */
    latencyMs: env.get('SANDBOX_LATENCY_MS', app.inTest ? 0 : 80),
    /** Requests per second before the sandbox answers "rate limited", like the provider (~25/s). */
    requestsPerSecond: env.get('SANDBOX_RPS', app.inTest ? 10_000 : 25),
    /** The sandbox signs and verifies webhooks exactly as Stripe does, with this install's secret. */
    webhookSecret: settings.sandboxWebhookSecret,
    /** An uncaptured hold lapses this long after it was placed, as card networks let it (~7 days). */
    holdExpiryHours: env.get('SANDBOX_HOLD_EXPIRY_HOURS', 168),
  },

  stripe: {
    secretKey: env.get('STRIPE_SECRET_KEY', ''),
    webhookSecret: env.get('STRIPE_WEBHOOK_SECRET', ''),
    /** Only for a local stand-in of the API (tests); unset in production. */
    host: env.get('STRIPE_API_HOST'),
    port: env.get('STRIPE_API_PORT'),
    protocol: env.get('STRIPE_API_PROTOCOL') as 'http' | 'https' | undefined,
    maxNetworkRetries: env.get('STRIPE_MAX_NETWORK_RETRIES', 2),
    timeoutMs: env.get('STRIPE_TIMEOUT_MS', 20_000),
  },

  holdWorker: {
    /** false: the web process leaves holds to `dropslot worker` (start/workers.ts). */
    enabled: env.get('HOLD_WORKER_ENABLED', true),
    pollMs: env.get('HOLD_WORKER_POLL_MS', 1000),
    batchSize: env.get('HOLD_WORKER_BATCH', 20),
    /** A hold "placing" for longer than this was left by a crash and is claimed again. */
    staleClaimSeconds: env.get('HOLD_WORKER_STALE_SECONDS', 120),
    /** Back-off after a provider error that may pass (rate limit, network): 5 s doubling, capped. */
    maxBackoffSeconds: 300,
    /**
     * A hold the bank asks the customer to authenticate (3-D Secure) waits until the product's
     * release, and at most this long after the order; then the order is cancelled.
     */
    authenticationWaitHours: env.get('HOLD_AUTHENTICATION_WAIT_HOURS', 24),
    /**
     * A waiting order's hold is renewed (a new round placed, the old one released) this long
     * before its authorization lapses, and at the latest half way through a shorter lifetime.
     */
    renewBeforeHours: env.get('HOLD_RENEW_BEFORE_HOURS', 24),
    /** A gateway that could not be reached for a renewal is asked again after this long. */
    renewRetrySeconds: 30,
    /** How long a hold is taken to last when the gateway does not say (card networks: ~7 days). */
    defaultLifetimeHours: 168,
  },
}

export default paymentsConfig
