import { createHash, createHmac } from 'node:crypto'

/*
| The secrets and ids of the payments module that must differ between installations: the
| installation id (part of every gateway idempotency key) and the sandbox gateway's webhook
| secret. Both are generated into `.env` on first run (scripts/env_file.js). Production refuses
| to start without them; development and test derive stable per-install values from APP_KEY.
*/

export type PaymentsEnv = {
  nodeEnv: string
  gateway: string
  /** PAYMENT_GATEWAY was set (production never runs on the default by accident). */
  gatewayExplicit?: boolean
  /** ALLOW_SANDBOX_IN_PRODUCTION=true: a production install on the sandbox, on purpose. */
  allowSandboxInProduction?: boolean
  appKey: string
  installationId?: string
  sandboxWebhookSecret?: string
  stripeSecretKey?: string
  stripeWebhookSecret?: string
}

export type PaymentsSettings = {
  installationId: string
  sandboxWebhookSecret: string
  /** Why this configuration may not run; empty when it may. */
  problems: string[]
}

/** SHA-256 of webhook secrets that were ever public (shipped in the repository as defaults). */
const PUBLIC_WEBHOOK_SECRETS = new Set([
  '9fc6c8b82bbf27618fbb75bc804aea55e810d3bb2695c8a31eac8400074b035f',
  // .env.test
  'd0f2396a175a9ccb5e43ca3b466e7f2f4dc23bcc35187cf547acc92a250aaa70',
])

/** Letters, digits and underscores (the key separator `-` never appears in it). */
export const INSTALLATION_ID_PATTERN = /^[A-Za-z0-9_]{8,64}$/

const MIN_SECRET_LENGTH = 24

function sha256(value: string) {
  return createHash('sha256').update(value).digest('hex')
}

function derive(appKey: string, purpose: string) {
  return createHmac('sha256', appKey).update(`dropslot:${purpose}`).digest('hex')
}

/** A secret anyone could know: one that was published (defaults, the test suite's) or too short. */
export function isPublicWebhookSecret(secret: string) {
  return PUBLIC_WEBHOOK_SECRETS.has(sha256(secret)) || secret.length < MIN_SECRET_LENGTH
}

export function resolvePaymentsSettings(input: PaymentsEnv): PaymentsSettings {
  const production = input.nodeEnv === 'production'
  const problems: string[] = []

  if (production && !input.gatewayExplicit) {
    problems.push(
      'PAYMENT_GATEWAY is not set: production needs its gateway named (stripe, or sandbox with ALLOW_SANDBOX_IN_PRODUCTION=true)'
    )
  } else if (production && input.gateway === 'sandbox' && !input.allowSandboxInProduction) {
    problems.push(
      'PAYMENT_GATEWAY=sandbox moves no real money: production takes it only with ALLOW_SANDBOX_IN_PRODUCTION=true'
    )
  }

  let installationId = input.installationId?.trim() ?? ''
  if (installationId && !INSTALLATION_ID_PATTERN.test(installationId)) {
    problems.push('INSTALLATION_ID must be 8 to 64 letters, digits or underscores')
  } else if (!installationId) {
    if (production) {
      problems.push(
        'INSTALLATION_ID is missing: set a random id, e.g. `openssl rand -hex 16` (never change it afterwards)'
      )
    }
    // Development and test: stable for this install (its APP_KEY is random), never shared.
    installationId = derive(input.appKey, 'installation-id').slice(0, 32)
  }

  let sandboxWebhookSecret = input.sandboxWebhookSecret?.trim() ?? ''
  if (input.gateway === 'sandbox' && production) {
    if (!sandboxWebhookSecret) {
      problems.push(
        'SANDBOX_WEBHOOK_SECRET is missing: set a random secret, e.g. whsec_ + `openssl rand -hex 24`'
      )
    } else if (isPublicWebhookSecret(sandboxWebhookSecret)) {
      problems.push(
        'SANDBOX_WEBHOOK_SECRET is a public or test value (or shorter than 24 characters): set a random secret'
      )
    }
  }
  if (!sandboxWebhookSecret) {
    sandboxWebhookSecret = `whsec_${derive(input.appKey, 'sandbox-webhook-secret').slice(0, 48)}`
  }

  if (input.gateway === 'stripe' && input.nodeEnv !== 'test') {
    if (!input.stripeSecretKey) problems.push('PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY')
    if (!input.stripeWebhookSecret) {
      problems.push('PAYMENT_GATEWAY=stripe needs STRIPE_WEBHOOK_SECRET')
    }
  }

  return { installationId, sandboxWebhookSecret, problems }
}

/** Throws with every problem at once, so a deployment is fixed in one go. */
export function assertPaymentsSettings(settings: PaymentsSettings) {
  if (settings.problems.length === 0) return
  throw new Error(`Payments configuration refused:\n- ${settings.problems.join('\n- ')}`)
}
