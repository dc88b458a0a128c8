import { createHash, randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { Secret, TOTP } from 'otpauth'
import User from '#accounts/models/user'
import { AppError } from '#core/exceptions/app_error'
import { cardVault } from '#core/services/card_vault'
import { clock } from '#core/services/clock'
import { sqlTime } from '#core/helpers/sql_time'
import { affectedRows } from '#core/helpers/db_errors'
import { STAFF_TOKEN_NAME } from '#accounts/services/access_tokens_provider'
import { passkeys } from '#accounts/services/passkeys'
import { accessTokenTtl } from '#config/tokens'
import string from '@adonisjs/core/helpers/string'

const customerTokenLifeMs = () => string.milliseconds.parse(accessTokenTtl)

/*
| Second factors for staff (and, later, customers who want one): TOTP (RFC 6238: SHA-1, six
| digits, 30-second steps, one step of drift either way) on the product's clock, and one-time
| recovery codes for a lost device. A staff account's password alone gets a token that only the
| factor routes accept (abilities `["second-factor"]`); a valid code makes that same token a full
| one (`["*"]`) and stamps when a factor was last presented (`factor_at`).
*/

/** The abilities of a token that still waits for its second factor. */
export const FACTOR_PENDING = ['second-factor']
/** How long a password-only staff token lasts before it must start again. */
export const FACTOR_PENDING_TTL_MS = 10 * 60_000
/** How long a staff session lasts in all once its factor is presented (PCI DSS 8.2.8's spirit). */
export const STAFF_SESSION_TTL_MS = 12 * 3_600_000
const ISSUER = 'Dropslot'
const STEP_SECONDS = 30
const RECOVERY_CODE_COUNT = 10

export type FactorState = 'required' | 'enrol'

const hashCode = (code: string) =>
  createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest('hex')

function totpFor(secret: string, email: string) {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: STEP_SECONDS,
    secret: Secret.fromBase32(secret),
  })
}

/** A recovery code as people read it: `XXXXX-XXXXX` (base32, 50 random bits). */
function recoveryCode() {
  const raw = Secret.fromHex(randomBytes(8).toString('hex')).base32.slice(0, 10)
  return `${raw.slice(0, 5)}-${raw.slice(5)}`
}

type UserRow = {
  id: number
  email: string
  totp_secret_sealed: string | null
  totp_confirmed_at: unknown
  totp_last_counter: number | string | null
}

async function rowOf(userId: number): Promise<UserRow> {
  const row = await db
    .from('users')
    .where('id', userId)
    .select('id', 'email', 'totp_secret_sealed', 'totp_confirmed_at', 'totp_last_counter')
    .first()
  if (!row) throw AppError.notFound('Account not found.', 'account_not_found')
  return row
}

export const secondFactor = {
  /** Whether the account must enrol a factor first, or present one it has. */
  async stateOf(userId: number): Promise<FactorState> {
    const row = await rowOf(userId)
    if (row.totp_secret_sealed && row.totp_confirmed_at) return 'required'
    return (await passkeys.countOf(userId)) > 0 ? 'required' : 'enrol'
  },

  /**
   * The methods the account can present now (`totp`, `passkey`, `recovery`); for an account
   * without a factor, the ones it can add.
   */
  async methodsOf(userId: number): Promise<string[]> {
    const row = await rowOf(userId)
    const methods: string[] = []
    if (row.totp_confirmed_at) methods.push('totp')
    if ((await passkeys.countOf(userId)) > 0) methods.push('passkey')
    if (methods.length === 0) return ['totp', 'passkey']
    const codes = await db
      .from('recovery_codes')
      .where('user_id', userId)
      .whereNull('used_at')
      .count('* as total')
    return Number(codes[0].total) > 0 ? [...methods, 'recovery'] : methods
  },

  /** Whether the account has any recovery codes (made with its first factor). */
  async hasRecoveryCodes(userId: number): Promise<boolean> {
    const codes = await db.from('recovery_codes').where('user_id', userId).count('* as total')
    return Number(codes[0].total) > 0
  },

  /**
   * A new TOTP secret for an account without a confirmed one (a second call replaces the first):
   * the base32 secret and the `otpauth://` URI an authenticator app reads from a QR code.
   */
  async enrol(userId: number) {
    const row = await rowOf(userId)
    if (row.totp_confirmed_at) {
      throw AppError.conflict(
        'This account already has an authenticator. Ask an owner to reset it if the device is lost.',
        'factor_enrolled'
      )
    }
    const secret = new Secret({ size: 20 }).base32
    await db
      .from('users')
      .where('id', userId)
      .whereNull('totp_confirmed_at')
      .update({ totp_secret_sealed: cardVault.seal(secret), totp_last_counter: null })
    return { secret, otpauthUrl: totpFor(secret, row.email).toString(), issuer: ISSUER }
  },

  /**
   * Checks a TOTP code on the product clock and uses it up: a code whose step is not later than
   * the last accepted one is refused, by one conditional update, so two requests with one code
   * cannot both pass. The first valid code confirms an enrolment and returns the account's
   * recovery codes, shown this once.
   */
  async presentTotp(userId: number, code: string): Promise<{ recoveryCodes: string[] | null }> {
    const row = await rowOf(userId)
    if (!row.totp_secret_sealed) {
      throw AppError.conflict('Add an authenticator first.', 'factor_not_enrolled')
    }
    const secret = cardVault.open<string>(row.totp_secret_sealed)
    const token = code.replace(/\s/g, '')
    const now = clock.nowMs()
    const delta = /^\d{6}$/.test(token)
      ? totpFor(secret, row.email).validate({ token, timestamp: now, window: 1 })
      : null
    if (delta === null) {
      throw AppError.unprocessable(
        'That code is not valid. Enter the current 6-digit code.',
        {
          code: 'That code is not valid.',
        },
        'invalid_code'
      )
    }
    const counter = Math.floor(now / 1000 / STEP_SECONDS) + delta
    const used = await db
      .from('users')
      .where('id', userId)
      .where((query) =>
        query.whereNull('totp_last_counter').orWhere('totp_last_counter', '<', counter)
      )
      .update({
        totp_last_counter: counter,
        ...(row.totp_confirmed_at ? {} : { totp_confirmed_at: sqlTime() }),
      })
    if (affectedRows(used) !== 1) {
      throw AppError.unprocessable(
        'That code was used already. Wait for the next one.',
        {
          code: 'That code was used already.',
        },
        'code_used'
      )
    }
    return { recoveryCodes: row.totp_confirmed_at ? null : await this.newRecoveryCodes(userId) }
  },

  /** Uses one recovery code (each works once). */
  async presentRecoveryCode(userId: number, code: string) {
    const used = await db
      .from('recovery_codes')
      .where('user_id', userId)
      .where('code_hash', hashCode(code))
      .whereNull('used_at')
      .update({ used_at: sqlTime() })
    if (affectedRows(used) !== 1) {
      throw AppError.unprocessable(
        'That recovery code is not valid or was used already.',
        {
          code: 'That recovery code is not valid.',
        },
        'invalid_code'
      )
    }
  },

  /** Ten new recovery codes (the old ones stop working); only their hashes are kept. */
  async newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode)
    await db.transaction(async (trx) => {
      await trx.from('recovery_codes').where('user_id', userId).delete()
      await trx.table('recovery_codes').multiInsert(
        codes.map((code) => ({
          user_id: userId,
          code_hash: hashCode(code),
          created_at: sqlTime(),
        }))
      )
    })
    return codes
  },

  /**
   * A password-only staff token: it opens the factor routes only, for 10 minutes of the product
   * clock (the clock every token's expiry is checked on).
   */
  async pendingToken(user: User, from: { ip?: string | null; agent?: string | null } = {}) {
    const token = await User.accessTokens.create(user, FACTOR_PENDING, {
      name: user.isStaff ? STAFF_TOKEN_NAME : undefined,
    })
    await db
      .from('auth_access_tokens')
      .where('id', String(token.identifier))
      .update({
        expires_at: sqlTime(new Date(clock.nowMs() + FACTOR_PENDING_TTL_MS)),
        // Its idle time counts from now on the product clock (the row's own stamps are the OS's).
        last_used_at: sqlTime(),
        ip: from.ip?.slice(0, 64) ?? null,
        user_agent: from.agent?.slice(0, 255) ?? null,
      })
    return token.value!.release()
  },

  /**
   * Stamps a factor presented on a token. A token that waited for its factor becomes a full one:
   * for a staff session's 12 hours, or a customer token's usual life. A full one only gets the new
   * time (a step-up, or a customer adding a factor), its end stays where the sign-in put it.
   */
  async completeToken(tokenId: string | number | bigint) {
    const now = sqlTime()
    const stamped = await db
      .from('auth_access_tokens')
      .where('id', String(tokenId))
      .whereNot('abilities', JSON.stringify(FACTOR_PENDING))
      .update({ factor_at: now, last_used_at: now, updated_at: now })
    if (affectedRows(stamped) === 1) return
    const row = await db.from('auth_access_tokens').where('id', String(tokenId)).first()
    const lifeMs = row?.name === STAFF_TOKEN_NAME ? STAFF_SESSION_TTL_MS : customerTokenLifeMs()
    await db
      .from('auth_access_tokens')
      .where('id', String(tokenId))
      .update({
        abilities: JSON.stringify(['*']),
        factor_at: now,
        last_used_at: now,
        expires_at: sqlTime(new Date(clock.nowMs() + lifeMs)),
        updated_at: now,
      })
  },

  /** Whether the account has an authenticator it has proved (customers: asked at sign-in). */
  async isConfirmed(userId: number): Promise<boolean> {
    const row = await rowOf(userId)
    return Boolean(row.totp_secret_sealed && row.totp_confirmed_at)
  },

  /**
   * A customer turns their authenticator off (a current code proves it is them): the secret and
   * the recovery codes go; their sessions stay. Staff cannot: their factor is required.
   */
  async removeOwn(user: User, code: string) {
    if (user.isStaff) {
      throw AppError.conflict(
        'Staff accounts keep their authenticator. An owner can reset it if the device is lost.',
        'factor_required'
      )
    }
    await this.presentTotp(user.id, code)
    await db.transaction(async (trx) => {
      await trx
        .from('users')
        .where('id', user.id)
        .update({ totp_secret_sealed: null, totp_confirmed_at: null, totp_last_counter: null })
      await trx.from('recovery_codes').where('user_id', user.id).delete()
    })
  },

  /**
   * Removes every factor of an account (authenticator, passkeys, recovery codes) and signs it out
   * everywhere: the way back for a lost device (CLI only, audited by the caller). The account
   * enrols again at its next sign-in.
   */
  async reset(userId: number) {
    await db.transaction(async (trx) => {
      await trx
        .from('users')
        .where('id', userId)
        .update({ totp_secret_sealed: null, totp_confirmed_at: null, totp_last_counter: null })
      await trx.from('recovery_codes').where('user_id', userId).delete()
      await trx.from('passkeys').where('user_id', userId).delete()
      await trx.from('auth_access_tokens').where('tokenable_id', userId).delete()
    })
  },

  /** Gives an account a confirmed TOTP factor from a known secret (the demo seed's admin). */
  async enrolKnownSecret(userId: number, secret: string) {
    await db
      .from('users')
      .where('id', userId)
      .update({
        totp_secret_sealed: cardVault.seal(secret),
        totp_confirmed_at: sqlTime(),
        totp_last_counter: null,
      })
  },

  /** The current code of a base32 secret at the product clock (tests and the demo's scripts). */
  codeAt(secret: string, atMs = clock.nowMs()) {
    return totpFor(secret, 'code').generate({ timestamp: atMs })
  },
}
