import env from '#start/env'
import releaseSettings from '#config/release'

export const CHECKOUT_ENGINES = ['simulator', 'webhook', 'files'] as const
export type EngineName = (typeof CHECKOUT_ENGINES)[number]

/** Release-day settings (environment only; see .env.example). Read on each use so tests can vary them. */
export function releaseConfig() {
  return {
    engine: env.get('CHECKOUT_ENGINE', 'simulator') as EngineName,
    simulator: {
      successRate: env.get('SIMULATOR_SUCCESS_RATE', 0.7),
      delayMs: env.get('SIMULATOR_DELAY_MS', 0),
      seed: env.get('SIMULATOR_SEED', 'dropslot'),
    },
    webhook: {
      url: env.get('CHECKOUT_WEBHOOK_URL', ''),
      /** Signs the tasks we send (CHECKOUT_TASK_SECRET). */
      taskSecret: releaseSettings.taskSecret,
      /** Verifies the results the bot sends back (CHECKOUT_RESULTS_SECRET). */
      resultsSecret: releaseSettings.resultsSecret,
      usesDeprecatedSecret: releaseSettings.usesDeprecatedSecret,
      attempts: env.get('CHECKOUT_WEBHOOK_ATTEMPTS', 3),
      backoffMs: env.get('CHECKOUT_WEBHOOK_BACKOFF_MS', 500),
      timeoutMs: env.get('CHECKOUT_WEBHOOK_TIMEOUT_MS', 5000),
      /** How old (seconds) a signed result callback may be before it is refused. */
      toleranceSeconds: env.get('CHECKOUT_WEBHOOK_TOLERANCE_SECONDS', 300),
    },
    filesDir: env.get('CHECKOUT_FILES_DIR', 'tmp/checkout-tasks'),
    /**
     * The circuit breaker: after this many orders in a row whose engine could not be reached, the
     * run stops submitting and ends failed (the orders stay pending for the next run).
     */
    breakerFailures: env.get('CHECKOUT_BREAKER_FAILURES', 3),
    /** A declined fee is tried again by later runs, at most this many attempts in all... */
    feeMaxAttempts: env.get('FEE_MAX_ATTEMPTS', 3),
    /** ...and no sooner than this many minutes after the last one. */
    feeRetryMinutes: env.get('FEE_RETRY_MINUTES', 60),
    /** A run's lock lapses this long after its last heartbeat (a killed run's lock expires). */
    lockTtlMs: env.get('RELEASE_LOCK_TTL_MS', 60_000),
  }
}
