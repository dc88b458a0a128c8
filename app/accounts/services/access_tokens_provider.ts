import { AccessToken, DbAccessTokensProvider } from '@adonisjs/auth/access_tokens'
import type { LucidModel, LucidRow } from '@adonisjs/lucid/types/model'
import type { Secret } from '@adonisjs/core/helpers'
import { tokenLastUse } from '#accounts/services/token_last_use'
import { withDriverSession } from '#core/services/driver_session'
import { clock } from '#core/services/clock'
import { dateFromSql, sqlTime } from '#core/helpers/sql_time'
import { STAFF_IDLE_MS } from '#shared/staff_roles'

/** The name of the tokens staff sign in with: they end after 15 minutes without a request. */
export const STAFF_TOKEN_NAME = 'staff'
/** A staff token's last use is written when the stored one is this old (product clock). */
const STAFF_USE_PRECISION_MS = 15_000

/** An access token with the time its owner last presented a second factor on it. */
export type FactorAccessToken = AccessToken & { factorAt: Date | null }

const TOKEN_COLUMNS = [
  'id',
  'tokenable_id',
  'type',
  'name',
  'hash',
  'abilities',
  'created_at',
  'updated_at',
  'last_used_at',
  'expires_at',
  'factor_at',
] as const
const TOKEN_ALIAS = '__token_'

/**
 * The access tokens provider of @adonisjs/auth, with `verify` changed for the release-day rush:
 *
 * - the stock provider writes `last_used_at` on every authenticated request, before the secret
 *   is even checked (an UPDATE and a commit per call); here the secret is checked first and the
 *   time of use goes to `tokenLastUse`, which writes it to the minute, in batches;
 * - `verifyWithTokenable` reads the token and its owner in one joined query, so an
 *   authenticated request costs one round trip to the database instead of two
 *   (TokenUserProvider uses it);
 * - a staff token (named `staff`) also ends after 15 minutes without a request, on the product
 *   clock, and its use is written at once (staff are few; the idle rule needs it exact);
 * - the token carries `factorAt`, when a second factor was last presented on it (step-up).
 */
export class AccessTokensProvider<
  TokenableModel extends LucidModel,
> extends DbAccessTokensProvider<TokenableModel> {
  private readonly joinedSql = new Map<string, string>()

  static forModel<TokenableModel extends LucidModel>(
    model: TokenableModel,
    options: Omit<ConstructorParameters<typeof DbAccessTokensProvider>[0], 'tokenableModel'>
  ) {
    return new AccessTokensProvider<TokenableModel>({ tokenableModel: model, ...options })
  }

  async verify(tokenValue: Secret<string>): Promise<AccessToken | null> {
    const decoded = AccessToken.decode(this.prefix, tokenValue.release())
    if (!decoded) return null
    const db = await this.getDb()
    const dbRow = await db
      .query()
      .from(this.table)
      .where({ id: decoded.identifier, type: this.type })
      .limit(1)
      .first()
    return dbRow ? this.accept(dbRow, decoded.secret) : null
  }

  /** The token and the model instance it belongs to, read together; null when invalid. */
  async verifyWithTokenable(
    tokenValue: Secret<string>
  ): Promise<{ token: AccessToken; tokenable: InstanceType<TokenableModel> } | null> {
    const verified = await this.verifyWithOwnerRow(tokenValue, 'o.*')
    if (!verified) return null
    const tokenable = this.options.tokenableModel.$createFromAdapterResult(
      verified.ownerRow
    ) as InstanceType<TokenableModel> & LucidRow
    return tokenable ? { token: verified.token, tokenable } : null
  }

  /**
   * The token and its owner's row (`ownerColumns` of the owner's table, aliased `o`), read in one
   * query; null when the token is unknown, expired or its secret does not match.
   */
  async verifyWithOwnerRow(
    tokenValue: Secret<string>,
    ownerColumns: string
  ): Promise<{ token: AccessToken; ownerRow: Record<string, unknown> } | null> {
    const decoded = AccessToken.decode(this.prefix, tokenValue.release())
    if (!decoded) return null
    const joinedSql = this.joinedSqlFor(ownerColumns)
    const row = await withDriverSession((session) =>
      session.first<Record<string, unknown>>(joinedSql, [decoded.identifier, this.type])
    )
    if (!row) return null

    const tokenRow: Record<string, unknown> = {}
    const ownerRow: Record<string, unknown> = {}
    for (const key in row) {
      if (key.startsWith(TOKEN_ALIAS)) tokenRow[key.slice(TOKEN_ALIAS.length)] = row[key]
      else ownerRow[key] = row[key]
    }
    const token = await this.accept(tokenRow, decoded.secret)
    return token ? { token, ownerRow } : null
  }

  /**
   * The token-and-owner query, written once per column list. Plain SQL on the driver: the query
   * builder's compilation and knex's runner were a good part of the cost of the one query every
   * authenticated request makes.
   */
  private joinedSqlFor(ownerColumns: string): string {
    let sql = this.joinedSql.get(ownerColumns)
    if (!sql) {
      const model = this.options.tokenableModel
      sql =
        `select ${ownerColumns}, ${TOKEN_COLUMNS.map((column) => `t.${column} as ${TOKEN_ALIAS}${column}`).join(', ')}` +
        ` from ${this.table} t inner join ${model.table} o on o.${model.primaryKey} = t.tokenable_id` +
        ` where t.id = ? and t.type = ? limit 1`
      this.joinedSql.set(ownerColumns, sql)
    }
    return sql
  }

  private async accept(dbRow: any, secret: Secret<string>): Promise<FactorAccessToken | null> {
    const accessToken = this.dbRowToAccessToken(dbRow) as FactorAccessToken
    // The expiry as a Date whatever the driver returned (SQLite gives text for a row written as
    // text), then checked on the product's clock, like everything else that expires.
    accessToken.expiresAt = dateFromSql(dbRow.expires_at)
    accessToken.factorAt = dateFromSql(dbRow.factor_at ?? null)
    const now = clock.nowMs()
    const expired = accessToken.expiresAt !== null && accessToken.expiresAt.getTime() <= now
    if (!accessToken.verify(secret) || expired) return null
    if (dbRow.name === STAFF_TOKEN_NAME) {
      const lastUse = Math.max(
        dateFromSql(dbRow.last_used_at ?? null)?.getTime() ?? 0,
        accessToken.factorAt?.getTime() ?? 0
      )
      if (now - lastUse >= STAFF_IDLE_MS) return null
      if (now - lastUse >= STAFF_USE_PRECISION_MS) await this.recordStaffUse(dbRow.id, now)
      return accessToken
    }
    const recorded = tokenLastUse.touch(this.table, dbRow.id, dbRow.last_used_at)
    if (recorded) accessToken.lastUsedAt = recorded
    return accessToken
  }

  private async recordStaffUse(id: number | string, now: number) {
    const db = await this.getDb()
    await db
      .from(this.table)
      .where('id', id)
      .update({ last_used_at: sqlTime(new Date(now)) })
  }
}
