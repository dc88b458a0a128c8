import { createHash } from 'node:crypto'

/*
| The checkout bot's two secrets: one signs the tasks we send (`CHECKOUT_TASK_SECRET`), the other
| verifies the results the bot sends back (`CHECKOUT_RESULTS_SECRET`), so whoever can verify a
| task (the bot, anyone who reads its logs) still cannot forge a result. Both are generated into
| `.env` on first run (scripts/env_file.js). Production refuses to start without both, or with
| one that is short, published, or the same as the other; elsewhere a missing pair falls back to
| the deprecated single `CHECKOUT_WEBHOOK_SECRET`, or leaves the bot engine off.
*/

export type CheckoutSecretsEnv = {
  nodeEnv: string
  taskSecret?: string
  resultsSecret?: string
  /** CHECKOUT_WEBHOOK_SECRET: both directions in one secret, before they were separated. */
  legacySecret?: string
}

export type CheckoutSecrets = {
  /** Signs tasks out; empty when not configured (the webhook engine then refuses to run). */
  taskSecret: string
  /** Verifies results in; empty when not configured (callbacks answer 503). */
  resultsSecret: string
  /** A direction runs on CHECKOUT_WEBHOOK_SECRET (development and test only). */
  usesDeprecatedSecret: boolean
  /** Why this configuration may not run; empty when it may. */
  problems: string[]
}

/** 32 random bytes, as hex (64 characters) or base64/base64url (43 characters). */
export const MIN_SECRET_BYTES = 32

/** SHA-256 of checkout secrets that were ever public (the test suite's, examples). */
const PUBLISHED_SECRETS = new Set([
  // The single secret of .env.test before the two were separated ('test-checkout-secret').
  '0bfb8b0b47d82f9f18bc0c16666cf4b159d3264c9b642a64ab8e5817391c1db3',
  // .env.test's task and results secrets.
  'a086a61aefa5c264a8bc23c0891b4f5fcafe0bff4dd8bba10aa95b45cc59abbe',
  '2333e2e44ff02ee992f9ee45f265bc9043a11de2bfca7c40f02b4bccaabd223a',
])

function sha256(value: string) {
  return createHash('sha256').update(value).digest('hex')
}

/** How many bytes a secret's text can carry: hex 4 bits a character, base64 6, other text 0. */
export function secretBytes(secret: string): number {
  if (/^[0-9a-fA-F]+$/.test(secret)) return Math.floor(secret.length / 2)
  if (/^[A-Za-z0-9+/_=-]+$/.test(secret))
    return Math.floor((secret.replace(/=+$/, '').length * 3) / 4)
  return 0
}

/**
 * Why a secret is not fit for production, or null: too short for 32 random bytes, made of too
 * few different characters to be random (`aaaa...`, `abab...`), or published.
 */
export function secretWeakness(secret: string): string | null {
  if (PUBLISHED_SECRETS.has(sha256(secret))) {
    return 'is a published value'
  }
  if (secretBytes(secret) < MIN_SECRET_BYTES) {
    return `is shorter than ${MIN_SECRET_BYTES} random bytes (64 hex or 43 base64url characters)`
  }
  if (new Set(secret).size < 10) return 'is not random (too few different characters)'
  return null
}

export function resolveCheckoutSecrets(input: CheckoutSecretsEnv): CheckoutSecrets {
  const production = input.nodeEnv === 'production'
  const problems: string[] = []
  const task = input.taskSecret?.trim() ?? ''
  const results = input.resultsSecret?.trim() ?? ''
  const legacy = input.legacySecret?.trim() ?? ''

  if (production) {
    if (legacy && (!task || !results)) {
      problems.push(
        'CHECKOUT_WEBHOOK_SECRET is no longer used in production: set CHECKOUT_TASK_SECRET and CHECKOUT_RESULTS_SECRET (two different random secrets, e.g. `openssl rand -base64 32`)'
      )
    }
    for (const [name, value] of [
      ['CHECKOUT_TASK_SECRET', task],
      ['CHECKOUT_RESULTS_SECRET', results],
    ] as const) {
      if (!value) {
        problems.push(`${name} is missing: set a random secret, e.g. \`openssl rand -base64 32\``)
        continue
      }
      const weakness = secretWeakness(value)
      if (weakness) problems.push(`${name} ${weakness}: set a random secret`)
    }
    if (task && task === results) {
      problems.push('CHECKOUT_TASK_SECRET and CHECKOUT_RESULTS_SECRET must differ')
    }
    return { taskSecret: task, resultsSecret: results, usesDeprecatedSecret: false, problems }
  }

  return {
    taskSecret: task || legacy,
    resultsSecret: results || legacy,
    usesDeprecatedSecret: Boolean(legacy) && (!task || !results),
    problems,
  }
}

/** Throws with every problem at once, so a deployment is fixed in one go. */
export function assertCheckoutSecrets(secrets: CheckoutSecrets) {
  if (secrets.problems.length === 0) return
  throw new Error(`Checkout bot configuration refused:\n- ${secrets.problems.join('\n- ')}`)
}
