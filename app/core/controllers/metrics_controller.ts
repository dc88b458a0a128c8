import type { HttpContext } from '@adonisjs/core/http'
import metricsConfig from '#config/metrics'
import { AppError } from '#core/exceptions/app_error'
import { tokenMatches } from '#core/services/metrics_access'
import { renderMetrics } from '#core/services/metrics'

export default class MetricsController {
  /**
   * GET /metrics: this process's metrics in Prometheus's text format, for
   * `Authorization: Bearer <METRICS_TOKEN>` only (401 otherwise). Without METRICS_TOKEN the
   * endpoint does not exist (404).
   */
  async show({ request, response }: HttpContext) {
    if (!metricsConfig.token) throw AppError.notFound('No such endpoint.', 'not_found')
    if (!tokenMatches(request.header('authorization'), metricsConfig.token)) {
      response.header('WWW-Authenticate', 'Bearer realm="metrics"')
      throw new AppError('The metrics token is missing or wrong.', {
        status: 401,
        code: 'unauthorized',
      })
    }
    const { contentType, body } = await renderMetrics()
    response.header('Cache-Control', 'no-store')
    return response.type(contentType).send(body)
  }
}
