import { CommanderError } from 'commander'
import { EXIT, UsageError, CommandFailed } from './output.js'
import { shutdownApp } from './app.js'
import { createProgram } from './program.js'

const program = createProgram()

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

try {
  await program.parseAsync(process.argv)
} catch (error) {
  process.exitCode = exitCodeOf(error)
  if (!(error instanceof CommanderError)) {
    const json = program.opts().json
    const reason = messageOf(error)
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
        `${JSON.stringify({ ...details, success: false, error: reason, ...(code ? { code } : {}) })}\n`
      )
    } else {
      process.stderr.write(`error: ${reason}\n`)
    }
    if (error instanceof CommandFailed === false && process.exitCode === EXIT.failed) {
      const status = (error as { status?: number }).status
      if (!status || status >= 500) process.stderr.write(`${(error as Error).stack ?? ''}\n`)
    }
  }
} finally {
  await shutdownApp()
}
