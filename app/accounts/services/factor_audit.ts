import type { HttpContext } from '@adonisjs/core/http'
import type User from '#accounts/models/user'
import { auditLog } from '#core/services/audit_log_service'

/** One audit record of a second-factor event of an account (enrolled, passed, failed...). */
export function auditFactor(
  ctx: Pick<HttpContext, 'auth' | 'request'>,
  user: Pick<User, 'uuid'>,
  action: string,
  meta: Record<string, unknown>
) {
  return auditLog.record({
    ...auditLog.fromRequest(ctx),
    action,
    subjectType: 'user',
    subjectId: user.uuid,
    meta,
  })
}
