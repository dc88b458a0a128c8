/*
| Creates .env from .env.example on first run, filling APP_KEY, the two encryption keys, the
| installation id, the sandbox webhook secret, the draws' fingerprint key and the checkout bot's
| two secrets (tasks out, results in: 32 random bytes each) with fresh random values. An existing
| .env is never touched (outside production, one made before DRAW_FINGERPRINT_KEY existed uses a
| fixed development key: config/draws.ts).
*/
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'

export function ensureEnvFile(root) {
  const envPath = new URL('.env', root)
  if (existsSync(envPath)) return false
  const template = readFileSync(new URL('.env.example', root), 'utf8')
  const filled = template
    .replace(/^APP_KEY=$/m, `APP_KEY=${randomBytes(32).toString('base64url')}`)
    .replace(
      /^PROFILE_TRANSPORT_KEY=$/m,
      `PROFILE_TRANSPORT_KEY=${randomBytes(32).toString('hex')}`
    )
    .replace(/^VAULT_KEYS=$/m, `VAULT_KEYS=k1:${randomBytes(32).toString('hex')}`)
    .replace(/^INSTALLATION_ID=$/m, `INSTALLATION_ID=${randomBytes(16).toString('hex')}`)
    .replace(
      /^SANDBOX_WEBHOOK_SECRET=$/m,
      `SANDBOX_WEBHOOK_SECRET=whsec_${randomBytes(24).toString('hex')}`
    )
    .replace(/^DRAW_FINGERPRINT_KEY=$/m, `DRAW_FINGERPRINT_KEY=${randomBytes(32).toString('hex')}`)
    .replace(
      /^CHECKOUT_TASK_SECRET=$/m,
      `CHECKOUT_TASK_SECRET=${randomBytes(32).toString('base64url')}`
    )
    .replace(
      /^CHECKOUT_RESULTS_SECRET=$/m,
      `CHECKOUT_RESULTS_SECRET=${randomBytes(32).toString('base64url')}`
    )
  writeFileSync(envPath, filled, { mode: 0o600 })
  return true
}

export function readEnvFile(root) {
  const values = {}
  const envPath = new URL('.env', root)
  if (!existsSync(envPath)) return values
  for (const line of readFileSync(envPath, 'utf8').split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line)
    if (match) values[match[1]] = match[2].replace(/^['"]|['"]$/g, '')
  }
  return values
}
