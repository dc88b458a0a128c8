import type { HttpContext } from '@adonisjs/core/http'
import type User from '#accounts/models/user'
import { staffSessions } from '#accounts/services/staff_sessions'
import { auditLog } from '#core/services/audit_log_service'

type TokenHolder = User & { currentAccessToken: { identifier: string | number | bigint } }

/**
 * GET /api/admin/sessions: the caller's open staff sessions (an owner's list: everyone's, or one
 * account's with `filter={"userId":"<uuid>"}`); DELETE /api/admin/sessions/:id ends one.
 */
export default class StaffSessionsController {
  async index(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    const mayAll = await ctx.bouncer.with('StaffPolicy').allows('perform', 'staff')
    const sessions = await staffSessions.list({
      userId: mayAll ? null : user.id,
      currentTokenId: String(user.currentAccessToken.identifier),
    })
    const filter = parseFilter(ctx.request.qs().filter)
    const rows = filter.userId ? sessions.filter((row) => row.userId === filter.userId) : sessions
    ctx.response.header(
      'Content-Range',
      `sessions 0-${Math.max(rows.length - 1, 0)}/${rows.length}`
    )
    ctx.response.header('X-Total-Count', String(rows.length))
    return rows
  }

  async revoke(ctx: HttpContext) {
    const user = ctx.auth.use('api').getUserOrFail() as TokenHolder
    const id = Number(ctx.params.id)
    const mayAll = await ctx.bouncer.with('StaffPolicy').allows('perform', 'staff')
    const holder = await staffSessions.holderOf(id)
    await staffSessions.revoke(id, mayAll ? null : user.id)
    await auditLog.record({
      ...auditLog.fromRequest(ctx),
      action: 'session.revoke',
      subjectType: 'user',
      subjectId: holder?.uuid ?? null,
      meta: {
        email: holder?.email ?? null,
        own:
          String(user.currentAccessToken.identifier) === String(id) || holder?.uuid === user.uuid,
        agent: ctx.request.header('user-agent') ?? null,
      },
    })
    return { success: true, id }
  }
}

function parseFilter(raw: unknown): { userId?: string } {
  if (typeof raw !== 'string' || raw.length > 500) return {}
  try {
    const parsed = JSON.parse(raw)
    return typeof parsed?.userId === 'string' ? { userId: parsed.userId } : {}
  } catch {
    return {}
  }
}
