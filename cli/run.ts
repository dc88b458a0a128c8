import { CommanderError } from 'commander'
import { EXIT, UsageError, CommandFailed } from './output.js'
import { createProgram } from './program.js'
import { isRedisUnreachable } from '#core/helpers/redis_errors'

function messageOf(error: unknown): string {
  const candidate = error as { messages?: { field: string; message: string }[]; message?: string }
  if (Array.isArray(candidate.messages)) {
    return candidate.messages.map((item) => `${item.field}: ${item.message}`).join('\n')
  }
  return candidate.message ?? String(error)
}

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
      ? EXIT.ok
      : EXIT.usage
  }
  if (error instanceof UsageError) return EXIT.usage
  const code = (error as { code?: string }).code
  if (code === 'E_VALIDATION_ERROR') return EXIT.usage
  return EXIT.failed
}

/**
 * A Redis that does not answer, said as such (ioredis says "max retries per request" or
 * "Connection is closed"), with where REDIS_URL points: never its password.
 */
function redisUnreachable(error: unknown): CommandFailed | null {
  if (!isRedisUnreachable(error)) return null
  let where = ''
  try {
    const url = new URL(process.env.REDIS_URL ?? '')
    where = ` at ${url.hostname}:${url.port || 6379}`
  } catch {}
  return new CommandFailed(
    `Redis${where} is not reachable: start it, or correct REDIS_URL. This command needs what ` +
      'is kept there: the release lock and the orders’ money locks (and the queues, with ' +
      'QUEUE_DRIVER=bullmq).'
  )
}

/** Says why a command failed: one JSON document with --json, a line on stderr otherwise. */
function reportFailure(error: unknown, json: boolean, exitCode: number) {
  if (json) {
    const details =
      error instanceof CommandFailed && error.details && typeof error.details === 'object'
        ? error.details
        : {}
    // An answer's stable code (e.g. `order_busy`), as the API gives it, for scripts to act on.
    const answer = error as { status?: unknown; code?: unknown }
    const code =
      typeof answer.status === 'number' && typeof answer.code === 'string' ? answer.code : null
    process.stdout.write(
      `${JSON.stringify({ ...details, success: false, error: messageOf(error), ...(code ? { code } : {}) })}\n`
    )
  } else {
    process.stderr.write(`error: ${messageOf(error)}\n`)
  }
  if (error instanceof CommandFailed === false && exitCode === EXIT.failed) {
    const status = (error as { status?: number }).status
    if (!status || status >= 500) process.stderr.write(`${(error as Error).stack ?? ''}\n`)
  }
}

/**
 * Runs one `dropslot` command line (`argv` as Node gives it: the program, the script, then the
 * arguments) and answers its exit code: 0 done, 1 failed, 2 bad usage. The command's output goes
 * to stdout and stderr; the application it booted stays up for the caller to shut down.
 */
export async function runProgram(argv: string[]): Promise<number> {
  const program = createProgram()
  try {
    await program.parseAsync(argv)
    return EXIT.ok
  } catch (error) {
    const exitCode = exitCodeOf(error)
    if (!(error instanceof CommanderError)) {
      reportFailure(redisUnreachable(error) ?? error, !!program.opts().json, exitCode)
    }
    return exitCode
  }
}
