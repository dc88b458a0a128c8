import db from '@adonisjs/lucid/services/db'
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import dropslotConfig from '#config/dropslot'
import type User from '#accounts/models/user'
import { AppError } from '#core/exceptions/app_error'
import { clock } from '#core/services/clock'
import { dateFromSql, sqlTime } from '#core/helpers/sql_time'
import { affectedRows } from '#core/helpers/db_errors'

/*
| Passkeys (WebAuthn) as a second factor: a phishing-resistant one, bound to this site's origin.
| Each ceremony's challenge is kept on the token that asked for it, for five minutes, and is used
| once (a conditional update clears it before the answer is checked).
*/

const RP_NAME = 'Dropslot'
const CHALLENGE_TTL_MS = 5 * 60_000
const MAX_PASSKEYS = 10

/** The site passkeys are bound to: APP_URL's host and origin. */
function relyingParty() {
  const url = new URL(dropslotConfig.appUrl)
  return { rpID: url.hostname, origin: url.origin }
}

const invalid = (message = 'That passkey could not be checked. Try again.') =>
  AppError.unprocessable(message, { passkey: message }, 'passkey_invalid')

async function keepChallenge(tokenId: string, challenge: string) {
  await db
    .from('auth_access_tokens')
    .where('id', tokenId)
    .update({ webauthn_challenge: challenge, webauthn_challenge_at: sqlTime() })
}

/** The token's pending challenge, taken (cleared) so it can answer one ceremony only. */
async function takeChallenge(tokenId: string): Promise<string> {
  const row = await db
    .from('auth_access_tokens')
    .where('id', tokenId)
    .select('webauthn_challenge', 'webauthn_challenge_at')
    .first()
  const challenge = row?.webauthn_challenge as string | null
  const at = dateFromSql(row?.webauthn_challenge_at ?? null)
  if (!challenge || !at || clock.nowMs() - at.getTime() > CHALLENGE_TTL_MS) {
    throw invalid('The passkey request timed out. Try again.')
  }
  const taken = await db
    .from('auth_access_tokens')
    .where('id', tokenId)
    .where('webauthn_challenge', challenge)
    .update({ webauthn_challenge: null, webauthn_challenge_at: null })
  if (affectedRows(taken) !== 1) throw invalid('The passkey request was used already. Try again.')
  return challenge
}

type PasskeyRow = {
  id: number
  credential_id: string
  public_key: string
  counter: number | string
  transports: string | null
}

const transportsOf = (row: PasskeyRow) =>
  row.transports ? (row.transports.split(',') as AuthenticatorTransportFuture[]) : undefined

async function passkeysOf(userId: number): Promise<PasskeyRow[]> {
  return db
    .from('passkeys')
    .where('user_id', userId)
    .select('id', 'credential_id', 'public_key', 'counter', 'transports')
}

export const passkeys = {
  async countOf(userId: number): Promise<number> {
    const rows = await db.from('passkeys').where('user_id', userId).count('* as total')
    return Number(rows[0].total)
  },

  /** Options for `navigator.credentials.create()`: a new passkey for this account. */
  async registrationOptions(user: User, tokenId: string) {
    const existing = await passkeysOf(user.id)
    if (existing.length >= MAX_PASSKEYS) {
      throw AppError.conflict(`An account keeps at most ${MAX_PASSKEYS} passkeys.`, 'too_many')
    }
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: relyingParty().rpID,
      userName: user.email,
      userID: new TextEncoder().encode(user.uuid),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({
        id: row.credential_id,
        transports: transportsOf(row),
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    })
    await keepChallenge(tokenId, options.challenge)
    return options
  },

  /** Checks the browser's answer to the registration options and keeps the new passkey. */
  async register(user: User, tokenId: string, response: RegistrationResponseJSON, name: string) {
    const expectedChallenge = await takeChallenge(tokenId)
    const { rpID, origin } = relyingParty()
    let verification
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      })
    } catch {
      throw invalid()
    }
    if (!verification.verified) throw invalid()
    const { credential } = verification.registrationInfo
    await db.table('passkeys').insert({
      user_id: user.id,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports?.join(',').slice(0, 255) ?? null,
      name: name.slice(0, 64),
      created_at: sqlTime(),
    })
  },

  /** Options for `navigator.credentials.get()`: any of this account's passkeys. */
  async authenticationOptions(user: User, tokenId: string) {
    const existing = await passkeysOf(user.id)
    if (existing.length === 0) {
      throw AppError.conflict('This account has no passkey.', 'no_passkey')
    }
    const options = await generateAuthenticationOptions({
      rpID: relyingParty().rpID,
      allowCredentials: existing.map((row) => ({
        id: row.credential_id,
        transports: transportsOf(row),
      })),
      userVerification: 'preferred',
    })
    await keepChallenge(tokenId, options.challenge)
    return options
  },

  /**
   * Checks a passkey's signature over the challenge. Its counter must move forward (when the
   * authenticator keeps one), by a conditional update: a copied answer cannot pass twice.
   */
  async authenticate(user: User, tokenId: string, response: AuthenticationResponseJSON) {
    const expectedChallenge = await takeChallenge(tokenId)
    const owned = await passkeysOf(user.id)
    const row = owned.find((item) => item.credential_id === response.id)
    if (!row) throw invalid('That passkey is not one of this account.')
    const { rpID, origin } = relyingParty()
    let verification
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
        credential: {
          id: row.credential_id,
          publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
          counter: Number(row.counter),
          transports: transportsOf(row),
        },
      })
    } catch {
      throw invalid()
    }
    if (!verification.verified) throw invalid()
    const { newCounter } = verification.authenticationInfo
    const moved = await db
      .from('passkeys')
      .where('id', row.id)
      .where((query) => query.where('counter', '<', newCounter).orWhere('counter', 0))
      .update({ counter: newCounter, last_used_at: sqlTime() })
    if (affectedRows(moved) !== 1) throw invalid('That passkey answer was used already.')
  },
}
