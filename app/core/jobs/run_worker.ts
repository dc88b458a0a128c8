import logger from '@adonisjs/core/services/logger'
import queueConfig from '#config/queue'
import { QUEUE_NAMES, type QueueName } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'
import metricsConfig from '#config/metrics'
import { collectProcessMetrics, setProcessRole } from '#core/services/metrics'
import { portOf, startMetricsServer } from '#core/services/metrics_server'
import { signals } from '#core/services/signals'
import { untilStopSignal } from '#core/services/stop_signal'

/** `--queues gateway,email` → the queue names, or an error naming the bad one. */
export function parseQueues(value: string | undefined): QueueName[] {
  if (!value) return [...QUEUE_NAMES]
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = names.find((name) => !QUEUE_NAMES.includes(name as QueueName))
  if (unknown || names.length === 0) {
    throw new Error(`--queues takes names from: ${QUEUE_NAMES.join(', ')} (got "${value}")`)
  }
  return names as QueueName[]
}

export function parseConcurrency(value: string | number | undefined): number {
  if (value === undefined || value === '') return queueConfig.concurrency
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1 || number > 100) {
    throw new Error('--concurrency must be a whole number from 1 to 100')
  }
  return number
}

export function parseMetricsPort(value: string | number | undefined): number {
  if (value === undefined || value === '') return metricsConfig.workerPort
  const number = Number(value)
  if (!Number.isInteger(number) || number < 0 || number > 65535) {
    throw new Error('--metrics-port must be a port number (0 for none)')
  }
  return number
}

/**
 * Runs jobs in this process until SIGTERM or SIGINT, then stops taking jobs, lets the running
 * ones finish and closes its connections (a graceful stop for systemd, Procfile hosts, Ctrl-C).
 * With a metrics port (and METRICS_TOKEN), it serves its own /metrics there.
 */
export async function runWorker(options: {
  queues: QueueName[]
  concurrency: number
  metricsPort?: number
}) {
  // Taken before the first job starts: a signal from now on lets running jobs finish.
  const stopSignal = untilStopSignal()
  setProcessRole('worker')
  collectProcessMetrics()
  signals.start()
  await jobs.work({ queues: options.queues, concurrency: options.concurrency })
  const metricsServer = options.metricsPort ? await startMetricsServer(options.metricsPort) : null
  const line =
    `worker started: driver ${jobs.driverName}, queues ${options.queues.join(',')}, ` +
    `concurrency ${options.concurrency}, gateway ${queueConfig.gatewayRatePerSecond}/s` +
    (metricsServer ? `, metrics on :${portOf(metricsServer)}/metrics` : '')
  logger.info(line)
  process.stderr.write(`${line}\n`)
  const signal = await stopSignal
  process.stderr.write(`${signal}: finishing running jobs\n`)
  await jobs.stop()
  await jobs.close()
  await signals.stop()
  metricsServer?.close()
  process.stderr.write('worker stopped\n')
}
