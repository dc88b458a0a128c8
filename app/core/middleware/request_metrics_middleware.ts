import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { requestDuration } from '#core/services/metrics'
import { signals } from '#core/services/signals'

/** Status classes as label values, made once (no string built per request). */
const STATUS_CLASS = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx']

/**
 * First in the server's stack, so it sees every answer (static files, the storefront, the API,
 * errors after the exception handler made them): one histogram observation by method, route
 * pattern and status class, and the answer counted for the 5xx alert. No allocation of its own
 * beyond the labels the observation takes, no I/O: the counters are written by a timer.
 */
export default class RequestMetricsMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const started = performance.now()
    await next()
    const status = ctx.response.getStatus()
    signals.answer(status)
    requestDuration.observe(
      {
        method: ctx.request.method(),
        route: ctx.route?.pattern ?? (status === 404 ? 'unmatched' : 'static'),
        status: STATUS_CLASS[Math.floor(status / 100)] ?? 'other',
      },
      (performance.now() - started) / 1000
    )
  }
}
