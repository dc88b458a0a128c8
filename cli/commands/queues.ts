import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { cliActor } from '../actor.js'
import { CommandFailed, printResult, printTable, UsageError } from '../output.js'

const QUEUES = ['gateway', 'email', 'release', 'results', 'maintenance'] as const
type Queue = (typeof QUEUES)[number]

function queueName(value: string): Queue {
  if (!QUEUES.includes(value as Queue)) {
    throw new UsageError(`QUEUE must be one of ${QUEUES.join(', ')}`)
  }
  return value as Queue
}

export function registerQueueCommands(program: Command) {
  program
    .command('worker')
    .description(
      'Run background jobs until SIGTERM (holds, e-mail, the release scan, sweeps): the same as ' +
        '`node ace queue:work`'
    )
    .option('--queues <names>', 'comma-separated: gateway,email,release,results,maintenance')
    .option('--concurrency <n>', 'jobs run at once per queue')
    .option('--metrics-port <port>', "serve this worker's /metrics here (needs METRICS_TOKEN)")
    .action(async (options: { queues?: string; concurrency?: string; metricsPort?: string }) => {
      await bootApp()
      const { parseConcurrency, parseMetricsPort, parseQueues, runWorker } =
        await import('#core/jobs/run_worker')
      let queues
      let concurrency
      let metricsPort
      try {
        queues = parseQueues(options.queues)
        concurrency = parseConcurrency(options.concurrency)
        metricsPort = parseMetricsPort(options.metricsPort)
      } catch (error) {
        throw new UsageError((error as Error).message)
      }
      await runWorker({ queues, concurrency, metricsPort })
    })

  program
    .command('queues:status')
    .description('Waiting, active, delayed and failed jobs per queue, and the oldest wait')
    .action(async () => {
      await bootApp()
      const { jobs } = await import('#core/jobs/jobs')
      const { queueAdmin } = await import('#admin/services/queue_admin_service')
      try {
        const { driver, queues, backlog } = await queueAdmin.overview()
        printResult(program.opts(), { success: true, driver, queues, backlog }, [
          `Driver: ${driver}`,
          ...(queues.length
            ? printTable(
                queues.map((queue) => ({
                  'queue': queue.queue,
                  'waiting': queue.waiting,
                  'active': queue.active,
                  'delayed': queue.delayed,
                  'failed': queue.failed,
                  'oldest waiting': ageText(queue.oldestWaitingSeconds),
                }))
              )
            : [
                'Jobs run inside the web process (QUEUE_DRIVER=database); the work due in the tables:',
              ]),
          ...printTable([
            {
              'work': 'holds to place',
              'due': backlog.holds.due,
              'oldest due': ageText(backlog.holds.oldestSeconds),
            },
            {
              'work': 'e-mails to send',
              'due': backlog.emails.due,
              'oldest due': ageText(backlog.emails.oldestSeconds),
            },
          ]),
        ])
      } finally {
        await jobs.close()
      }
    })

  program
    .command('queues:failed')
    .description('Jobs that used up their attempts and wait in the failed set (BullMQ)')
    .argument('<queue>', QUEUES.join(' | '))
    .option('--limit <n>', 'how many to list', '20')
    .action(async (queue: string, options: { limit: string }) => {
      const name = queueName(queue)
      const limit = Number(options.limit)
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new UsageError('--limit must be a whole number from 1 to 1000')
      }
      await bootApp()
      const { jobs } = await import('#core/jobs/jobs')
      try {
        const failed = await jobs.failed(name, limit)
        printResult(program.opts(), { success: true, queue: name, failed }, [
          failed.length ? `${failed.length} failed job(s) in ${name}` : `No failed job in ${name}`,
          ...printTable(
            failed.map((job) => ({
              'id': job.id,
              'job': job.name,
              'payload': JSON.stringify(job.payload),
              'attempts': job.attempts,
              'failed at': job.failedAt ?? '',
              'error': job.error.slice(0, 80),
            }))
          ),
        ])
      } finally {
        await jobs.close()
      }
    })

  for (const [command, verb, description] of [
    ['queues:retry', 'retry', 'Run a failed job again'],
    ['queues:discard', 'discard', 'Delete a failed job (its work stays in the tables)'],
  ] as const) {
    program
      .command(command)
      .description(`${description} (audited)`)
      .argument('<queue>', QUEUES.join(' | '))
      .argument('<id>', 'job id, from queues:failed')
      .action(async (queue: string, id: string) => {
        const name = queueName(queue)
        await bootApp()
        const actor = await cliActor(program, 'release')
        const { jobs } = await import('#core/jobs/jobs')
        const { queueAdmin } = await import('#admin/services/queue_admin_service')
        try {
          try {
            await queueAdmin.act(verb, name, id, { actor })
          } catch (error) {
            throw new CommandFailed((error as Error).message)
          }
          printResult(program.opts(), { success: true, queue: name, id }, [
            verb === 'retry' ? `Job ${id} of ${name} queued again` : `Job ${id} of ${name} deleted`,
          ])
        } finally {
          await jobs.close()
        }
      })
  }
}

function ageText(seconds: number | null) {
  if (seconds === null) return '-'
  return seconds < 120 ? `${seconds}s` : `${Math.round(seconds / 60)}min`
}
