import db from '@adonisjs/lucid/services/db'
import { AppError } from '#core/exceptions/app_error'
import { clock } from '#core/services/clock'
import { dateFromSql, sqlTime } from '#core/helpers/sql_time'
import { affectedRows } from '#core/helpers/db_errors'
import { STAFF_TOKEN_NAME } from '#accounts/services/access_tokens_provider'
import { STAFF_IDLE_MS } from '#shared/staff_roles'

const iso = (value: unknown) => dateFromSql(value)?.toISOString() ?? null

/** At most this many sessions are listed (newest first); staff rarely hold more than a few. */
const LIST_LIMIT = 200

/**
 * Staff sessions (their `staff` tokens still open): a staff member sees and ends their own, an
 * owner anyone's. Ending one deletes its token, so its next request is a 401.
 */
export const staffSessions = {
  async list(options: { userId: number | null; currentTokenId: string | null }) {
    const nowMs = clock.nowMs()
    const rows = await db
      .from('auth_access_tokens as t')
      .join('users as u', 'u.id', 't.tokenable_id')
      .where('t.name', STAFF_TOKEN_NAME)
      .where('t.expires_at', '>', sqlTime(new Date(nowMs)))
      .if(options.userId !== null, (query) => query.where('t.tokenable_id', options.userId!))
      .orderBy('t.id', 'desc')
      .limit(LIST_LIMIT)
      .select(
        't.id',
        't.created_at',
        't.last_used_at',
        't.expires_at',
        't.factor_at',
        't.abilities',
        't.ip',
        't.user_agent',
        'u.uuid',
        'u.email',
        'u.role'
      )
    return rows
      .map((row) => {
        const lastUse = Math.max(
          dateFromSql(row.last_used_at)?.getTime() ?? 0,
          dateFromSql(row.factor_at)?.getTime() ?? 0
        )
        return {
          id: Number(row.id),
          userId: row.uuid as string,
          email: row.email as string,
          role: row.role as string,
          signedInAt: iso(row.created_at),
          lastUsedAt: new Date(lastUse).toISOString(),
          factorAt: iso(row.factor_at),
          expiresAt: new Date(
            Math.min(dateFromSql(row.expires_at)!.getTime(), lastUse + STAFF_IDLE_MS)
          ).toISOString(),
          secondFactorDone: String(row.abilities).includes('*'),
          ip: (row.ip as string | null) ?? null,
          userAgent: (row.user_agent as string | null) ?? null,
          current: String(row.id) === options.currentTokenId,
          idle: nowMs - lastUse >= STAFF_IDLE_MS,
        }
      })
      .filter((session) => !session.idle)
      .map(({ idle: _idle, ...session }) => session)
  },

  /** Ends one session; `ownerOnly` limits it to that account's own sessions. */
  async revoke(id: number, ownerOnly: number | null) {
    const deleted = await db
      .from('auth_access_tokens')
      .where('id', id)
      .where('name', STAFF_TOKEN_NAME)
      .if(ownerOnly !== null, (query) => query.where('tokenable_id', ownerOnly!))
      .delete()
    if (affectedRows(deleted) !== 1) {
      throw AppError.notFound('No such session.', 'session_not_found')
    }
  },

  /** Who a session belongs to, for the audit log (null when it is gone). */
  async holderOf(id: number) {
    const row = await db
      .from('auth_access_tokens as t')
      .join('users as u', 'u.id', 't.tokenable_id')
      .where('t.id', id)
      .select('u.uuid', 'u.email')
      .first()
    return row ? { uuid: row.uuid as string, email: row.email as string } : null
  },
}
