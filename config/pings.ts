import env from '#start/env'
import app from '@adonisjs/core/services/app'
import dropslotConfig from '#config/dropslot'

/*
| Customer pings (docs/operations.md): web push (VAPID keys generated into .env on first run by
| scripts/env_file.js, the `web-push` package) and a customer's own Discord webhook. Without
| VAPID keys the storefront offers no push; a Discord URL works without any setting.
*/

/** Push services of the browsers we know; a subscription elsewhere is refused (no SSRF). */
const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
]

const publicKey = env.get('VAPID_PUBLIC_KEY')?.trim() || null
const privateKey = env.get('VAPID_PRIVATE_KEY')?.trim() || null

const pingsConfig = {
  vapid:
    publicKey && privateKey
      ? {
          publicKey,
          privateKey,
          /** Who the push services may contact about our messages. */
          subject: env.get('VAPID_SUBJECT')?.trim() || `mailto:${dropslotConfig.supportEmail}`,
        }
      : null,
  /** Hosts (a leading `*.` for any subdomain) a push subscription's endpoint may be on. */
  pushServiceHosts: (env.get('PUSH_SERVICE_HOSTS')?.trim()
    ? env.get('PUSH_SERVICE_HOSTS')!.split(',')
    : DEFAULT_PUSH_HOSTS
  )
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean),
  /** Plain-HTTP endpoints on this machine (a local push service in development and tests). */
  allowLoopbackHttp: !app.inProduction,
  /** Where a customer's Discord webhook is delivered (its stand-in in tests). */
  discordApiUrl: (env.get('DISCORD_API_URL') ?? 'https://discord.com').replace(/\/+$/, ''),
  /** A push service keeps a message this long for a browser that is offline. */
  ttlSeconds: 24 * 3600,
  /** Tries per message and channel before it is given up (back-off between them). */
  maxAttempts: 5,
  timeoutMs: 10_000,
  /** A message older than this is not sent any more (a ping about yesterday is noise). */
  maxAgeHours: 24,
}

export default pingsConfig
