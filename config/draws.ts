import { createHash } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import env from '#start/env'

/*
| Draws and waiting rooms (app/draws). The beacon is drand's quicknet, read from the relays in
| DRAND_URLS (drand's own public relays by default; `off`: none, and a draw waits for
| `dropslot draw:run --beacon FILE`). The tests never use the network: they serve recorded
| rounds from a local relay.
|
| DRAW_FINGERPRINT_KEY keys the hashes that make two entries (or two places in a line) the same
| person's: the card's fingerprint at the gateway and the normalized address. Its own secret,
| never derived from APP_KEY, generated into .env by `npm start`; production refuses to start
| without it.
*/
const PUBLIC_RELAYS = 'https://api.drand.sh,https://drand.cloudflare.com'

function fingerprintKey(): Buffer {
  const value = env.get('DRAW_FINGERPRINT_KEY')
  if (value) return Buffer.from(value, 'hex')
  if (env.get('NODE_ENV') === 'production') {
    throw new Error('DRAW_FINGERPRINT_KEY is missing: generate 64 hex characters and keep them')
  }
  // Development without the variable: a fixed key, so entries still collide across restarts.
  return createHash('sha256').update('dropslot-development-draw-fingerprint-key').digest()
}

const drawsConfig = {
  /** Relays (base URLs) asked, in order, for a quicknet round. */
  drandUrls: (env.get('DRAND_URLS') || (app.inTest ? 'off' : PUBLIC_RELAYS))
    .split(',')
    .filter((url) => url.trim() !== 'off')
    .map((url) => url.trim().replace(/\/+$/, ''))
    .filter(Boolean),
  /** How long one relay may take to answer. */
  beaconTimeoutMs: env.get('DRAND_TIMEOUT_MS', 10_000),
  /** How long past its beacon round a draw waits for card checks still being placed. */
  cardCheckWaitMinutes: env.get('DRAW_CARD_CHECK_WAIT_MINUTES', 30),
  fingerprintKey: fingerprintKey(),
}

export default drawsConfig
