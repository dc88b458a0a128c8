import type { HttpContext } from '@adonisjs/core/http'
import { consoleReleaseRun } from '#release/services/console_release_run'
import { auditLog } from '#core/services/audit_log_service'
import { runReleaseValidator } from '#release/validators/release_validators'

/**
 * POST /api/admin/release-runs {productId?, dryRun, confirm?}: run release day now (201, the run
 * record; 202 `{queued: true}` when workers run it). JSON only (middleware.jsonOnly()), and only the body counts: a query string cannot
 * turn a dry run into a real one.
 */
export default class ReleaseRunsController {
  async store(ctx: HttpContext) {
    const { productId, dryRun } = await ctx.request.validateUsing(runReleaseValidator, {
      data: ctx.request.body(),
    })
    const run = await consoleReleaseRun.run({ productId, dryRun }, auditLog.fromRequest(ctx))
    // 202 when a worker runs it (QUEUE_DRIVER=bullmq): the console follows it in the runs list.
    return 'queued' in run ? ctx.response.accepted(run) : ctx.response.created(run)
  }
}
