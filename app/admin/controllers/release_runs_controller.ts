import type { HttpContext } from '@adonisjs/core/http'
import { adminRelease } from '#admin/services/admin_release_service'
import { auditLog } from '#admin/services/audit_log_service'
import { runReleaseValidator } from '#admin/validators/admin_validators'

/** POST /api/admin/release-runs {productId?, dryRun?}: run release day now (201, the run record). */
export default class ReleaseRunsController {
  async store(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(runReleaseValidator)
    const run = await adminRelease.run(payload, auditLog.fromRequest(ctx))
    return ctx.response.created(run)
  }
}
