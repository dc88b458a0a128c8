import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { DATABASE_RETRY_AFTER } from '#core/exceptions/handler'
import { jobs } from '#core/jobs/jobs'

export default class HealthController {
  /**
   * The database, and the job queues: with BullMQ whether Redis answers and how long the oldest
   * job has waited (queue lag), so a load balancer or a monitor sees stuck workers.
   */
  async show({ response }: HttpContext) {
    let database = 'ok'
    try {
      await db.rawQuery('select 1')
    } catch {
      database = 'unreachable'
    }
    let queues: Record<string, unknown> = { driver: jobs.driverName, status: 'ok' }
    try {
      const status = await jobs.status()
      const waits = status.map((queue) => queue.oldestWaitingSeconds ?? 0)
      queues = {
        ...queues,
        oldestWaitingSeconds: Math.max(0, ...waits),
        failed: status.reduce((sum, queue) => sum + queue.failed, 0),
      }
    } catch {
      queues = { ...queues, status: 'unreachable' }
    }
    const healthy = database === 'ok' && queues.status === 'ok'
    if (!healthy) response.header('Retry-After', String(DATABASE_RETRY_AFTER))
    return response
      .status(healthy ? 200 : 503)
      .json({ status: healthy ? 'ok' : 'degraded', database, queues })
  }
}
