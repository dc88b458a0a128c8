import type { HttpContext } from '@adonisjs/core/http'
import { auditLog } from '#core/services/audit_log_service'
import { queueAdmin, queueNameOf } from '#admin/services/queue_admin_service'

/** GET /api/admin/queues; POST .../queues/:queue/failed/:jobId/{retry,discard} (audited). */
export default class QueuesController {
  async index() {
    return queueAdmin.overview()
  }

  async retry(ctx: HttpContext) {
    return this.act(ctx, 'retry')
  }

  async discard(ctx: HttpContext) {
    return this.act(ctx, 'discard')
  }

  private act(ctx: HttpContext, verb: 'retry' | 'discard') {
    const queue = queueNameOf(ctx.params.queue)
    return queueAdmin.act(verb, queue, String(ctx.params.jobId), auditLog.fromRequest(ctx))
  }
}
