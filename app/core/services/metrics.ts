import { hostname } from 'node:os'
import client from 'prom-client'
import metricsConfig from '#config/metrics'

/*
| Prometheus metrics of this process (docs/operations.md). Every process keeps its own and labels
| them with its role (web, worker, console) and `host:pid`, so Prometheus scrapes each web process
| at /metrics and each worker at its own listener, and sums them.
|
| On the request path there is one histogram observation per answer (the middleware) and nothing
| else: counters move where the event happens (a checkout, a hold, a fee), gauges that need a
| query (queues) are read only when Prometheus scrapes.
*/

export const registry = new client.Registry()

export type ProcessRole = 'web' | 'worker' | 'console'

/** Names this process in every series: set by the web preload, the worker, or left `console`. */
export function setProcessRole(role: ProcessRole) {
  registry.setDefaultLabels({ role, process: `${hostname()}:${process.pid}` })
}
setProcessRole('console')

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
  new client.Counter<L>({ name, help, labelNames, registers: [registry] })

/** Answers by method, route pattern and status class: the one observation per request. */
export const requestDuration = new client.Histogram<'method' | 'route' | 'status'>({
  name: 'dropslot_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status class',
  labelNames: ['method', 'route', 'status'],
  buckets: SECONDS_BUCKETS,
  registers: [registry],
})

export const checkouts = counter(
  'dropslot_checkouts_total',
  'Checkout calls by result: ordered, entered (a draw), sold_out, duplicate, refused (other 4xx), error',
  ['result']
)

export const soldOutRefusals = counter(
  'dropslot_sold_out_refusals_total',
  'Checkouts refused as sold out, by where: shortcut (before the token check) or checkout',
  ['source']
)

export const holds = counter(
  'dropslot_holds_total',
  '$1.00 card checks by result of the gateway call: placed, requires_action, declined, retry, released, release_failed',
  ['result']
)

export const fees = counter(
  'dropslot_fees_total',
  'Service fee charges by result of the gateway call: charged, declined, retry',
  ['result']
)

export const feesChargedCents = counter(
  'dropslot_fees_charged_cents_total',
  'Service fees charged, in cents',
  []
)

export const refunds = counter(
  'dropslot_refunds_total',
  'Fee refunds by result of the gateway call: refunded, failed, retry',
  ['result']
)

export const refundedCents = counter('dropslot_refunded_cents_total', 'Fees refunded, in cents', [])

export const releaseRuns = counter(
  'dropslot_release_runs_total',
  'Release runs (not dry runs, not idle ticks) by how they ended: finished or failed',
  ['status']
)

export const releaseRunDuration = new client.Histogram<'status'>({
  name: 'dropslot_release_run_duration_seconds',
  help: 'How long release runs took, by how they ended',
  labelNames: ['status'],
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
  registers: [registry],
})

export const mailIntake = counter(
  'dropslot_mail_intake_total',
  'Retailer e-mails taken in, by what was done with them',
  ['action']
)

export const mailDoorRefusals = counter(
  'dropslot_mail_door_refused_total',
  'Mail the intake doors turned away (SMTP answers 4xx/5xx) or set aside (IMAP quarantine), by door and reason',
  ['door', 'reason']
)

export const gatewayRateLimited = counter(
  'dropslot_gateway_rate_limited_total',
  'Answers of the payment gateway asking us to slow down (HTTP 429), by gateway',
  ['gateway']
)

export const badWebhookSignatures = counter(
  'dropslot_webhook_bad_signatures_total',
  'Webhook deliveries refused for their signature, by source: stripe or checkout-results',
  ['source']
)

export const pings = counter(
  'dropslot_pings_total',
  'Customer pings (web push, Discord) by channel and result: sent, gone, failed',
  ['channel', 'result']
)

const queueJobs = new client.Gauge<'queue' | 'state'>({
  name: 'dropslot_queue_jobs',
  help: 'Jobs per queue and state (waiting, active, delayed, failed); with BullMQ the cluster-wide counts',
  labelNames: ['queue', 'state'],
  registers: [registry],
  async collect() {
    await readQueues()
  },
})

const queueOldest = new client.Gauge<'queue'>({
  name: 'dropslot_queue_oldest_waiting_seconds',
  help: 'Age of the oldest waiting job per queue (0 when none waits)',
  labelNames: ['queue'],
  registers: [registry],
})

/** Both queue gauges from one read of the queues, at scrape time only. */
async function readQueues() {
  const { jobs } = await import('#core/jobs/jobs')
  const status = await jobs.status().catch(() => [])
  queueJobs.reset()
  queueOldest.reset()
  for (const queue of status) {
    for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) {
      queueJobs.set({ queue: queue.queue, state }, queue[state])
    }
    queueOldest.set({ queue: queue.queue }, queue.oldestWaitingSeconds ?? 0)
  }
}

let defaultsOn = false

/** Process metrics (CPU, memory, event loop, GC) once the endpoint is on. */
export function collectProcessMetrics() {
  if (defaultsOn || !metricsConfig.token) return
  defaultsOn = true
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 50 })
}

/** The text Prometheus scrapes. */
export async function renderMetrics() {
  return { contentType: registry.contentType, body: await registry.metrics() }
}
