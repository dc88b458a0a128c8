import type { HttpContext } from '@adonisjs/core/http'
import { DATABASE_RETRY_AFTER } from '#core/exceptions/handler'
import { BeaconCheck, healthChecks, MailIntakeCheck, QueueCheck } from '#start/health'

export default class HealthController {
  /**
   * The database, Redis when used, and the job queues (how long the oldest job has waited), so a
   * load balancer or a monitor sees a process that cannot work. 503 when a check fails; a queue
   * lag warns without failing. Only check names and statuses are shown: no hosts, no errors.
   */
  async show({ response }: HttpContext) {
    const report = await healthChecks().run()
    const byName = new Map(report.checks.map((check) => [check.name, check]))
    const database = report.checks.find((check) => check.name.startsWith('Database'))
    const queueCheck = byName.get(new QueueCheck().name)
    const redisCheck = report.checks.find((check) => check.name.startsWith('Redis'))
    const beaconCheck = byName.get(new BeaconCheck().name)
    const mailCheck = byName.get(new MailIntakeCheck().name)
    const waiting = (beaconCheck?.meta ?? {}) as {
      draws?: { productId: number; round: number | null }[]
      lines?: { productId: number; round: number | null }[]
    }
    const healthy = report.isHealthy
    if (!healthy) response.header('Retry-After', String(DATABASE_RETRY_AFTER))
    return response.status(healthy ? 200 : 503).json({
      status: healthy ? 'ok' : 'degraded',
      database: database?.status === 'error' ? 'unreachable' : 'ok',
      ...(redisCheck ? { redis: redisCheck.status === 'error' ? 'unreachable' : 'ok' } : {}),
      queues: {
        driver: queueCheck?.meta?.driver,
        status: queueCheck?.status === 'error' ? 'unreachable' : 'ok',
        oldestWaitingSeconds: queueCheck?.meta?.oldestWaitingSeconds,
        failed: queueCheck?.meta?.failed,
      },
      // Draws (and lines) whose beacon round is out but not to be had: product ids and rounds.
      draws: {
        status: beaconCheck?.status === 'warning' ? 'waiting_for_beacon' : 'ok',
        waitingForBeacon: (waiting.draws ?? []).map(({ productId, round }) => ({
          productId,
          round,
        })),
        linesWaitingForBeacon: (waiting.lines ?? []).map(({ productId, round }) => ({
          productId,
          round,
        })),
      },
      // The retailers' mailbox: the doors that could not be read for 5 minutes (a warning).
      mail: {
        status: mailCheck?.status === 'warning' ? 'unreadable' : 'ok',
        unreadable: ((mailCheck?.meta ?? {}) as { unreadable?: string[] }).unreadable ?? [],
      },
      checks: report.checks.map((check) => ({ name: check.name, status: check.status })),
    })
  }
}
