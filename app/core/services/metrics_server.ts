import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import metricsConfig from '#config/metrics'
import { tokenMatches } from '#core/services/metrics_access'
import { renderMetrics } from '#core/services/metrics'

/**
 * A worker's own /metrics (workers serve no HTTP otherwise): the same token, the same text as a
 * web process's endpoint. Started by `queue:work --metrics-port N` or WORKER_METRICS_PORT.
 */
export async function startMetricsServer(port: number, host = '0.0.0.0'): Promise<Server | null> {
  const token = metricsConfig.token
  if (!token) return null
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0]
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n')
      return
    }
    if (!tokenMatches(request.headers.authorization, token)) {
      response
        .writeHead(401, {
          'content-type': 'text/plain',
          'www-authenticate': 'Bearer realm="metrics"',
        })
        .end('The metrics token is missing or wrong.\n')
      return
    }
    try {
      const { contentType, body } = await renderMetrics()
      response
        .writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' })
        .end(body)
    } catch {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be read.\n')
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  server.unref()
  return server
}

export function portOf(server: Server) {
  return (server.address() as AddressInfo).port
}
