import env from '#start/env'

/*
| Prometheus metrics (`GET /metrics`, docs/operations.md). The endpoint is off unless
| METRICS_TOKEN is set, and then answers only `Authorization: Bearer <METRICS_TOKEN>`. Workers
| have no HTTP server: `queue:work --metrics-port N` (or WORKER_METRICS_PORT) serves their own.
*/
const metricsConfig = {
  /** The scrape token; null turns /metrics off (404). */
  token: env.get('METRICS_TOKEN')?.trim() || null,
  /** A worker's own /metrics listener (0 or unset: none). */
  workerPort: env.get('WORKER_METRICS_PORT', 0),
}

export default metricsConfig
