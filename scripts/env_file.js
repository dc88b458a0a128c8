/*
| Creates .env from .env.example on first run, filling APP_KEY, the two encryption keys, the
| installation id, the sandbox webhook secret, the draws' fingerprint key, the checkout bot's
| two secrets (tasks out, results in: 32 random bytes each) and the web push (VAPID) key pair with
| fresh random values. An existing .env keeps every value it has; it only gains keys added since
| it was made (the VAPID pair, when it has neither). Outside production, one made before
| DRAW_FINGERPRINT_KEY existed uses a fixed development key (config/draws.ts).
*/
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createECDH, randomBytes } from 'node:crypto'

/** A P-256 key pair for web push (RFC 8292), base64url as the Push API and web-push take them. */
export function vapidKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const secret = ecdh.getPrivateKey()
  // 32 bytes, leading zeros kept (the Push API and web-push want exactly 32).
  const privateKey = Buffer.concat([Buffer.alloc(32 - secret.length), secret])
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: privateKey.toString('base64url'),
  }
}

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
  const vapid = vapidKeys()
  const withPush = filled
    .replace(/^VAPID_PUBLIC_KEY=$/m, `VAPID_PUBLIC_KEY=${vapid.publicKey}`)
    .replace(/^VAPID_PRIVATE_KEY=$/m, `VAPID_PRIVATE_KEY=${vapid.privateKey}`)
  writeFileSync(envPath, withPush, { mode: 0o600 })
  return true
}

/**
 * Keys added to the product after a .env was made, appended to it (never changing a value it
 * has): a web push key pair when it has neither key. Returns the names added.
 */
export function addMissingKeys(root) {
  const envPath = new URL('.env', root)
  if (!existsSync(envPath)) return []
  const values = readEnvFile(root)
  if (values.VAPID_PUBLIC_KEY || values.VAPID_PRIVATE_KEY) return []
  const vapid = vapidKeys()
  const text = readFileSync(envPath, 'utf8')
  appendFileSync(
    envPath,
    `${text.endsWith('\n') ? '' : '\n'}# Web push (VAPID) keys, generated for this install\n` +
      `VAPID_PUBLIC_KEY=${vapid.publicKey}\nVAPID_PRIVATE_KEY=${vapid.privateKey}\n`
  )
  return ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']
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
