import { Command, CommanderError } from 'commander'
import { EXIT, UsageError, CommandFailed } from './output.js'
import { shutdownApp } from './app.js'
import { cliLogLevel } from './log_level.js'
import { registerUserCommands } from './commands/users.js'
import { registerPromoCommands } from './commands/promo.js'
import { registerReleaseCommands } from './commands/release.js'
import { registerOrderCommands } from './commands/orders.js'
import { registerEmailCommands } from './commands/emails.js'
import { registerAcoCommands } from './commands/aco.js'
import { registerProductCommands } from './commands/products.js'
import { registerCardCommands } from './commands/cards.js'
import { registerQueueCommands } from './commands/queues.js'
import { registerDrawCommands } from './commands/draws.js'
import { registerAlertCommands } from './commands/alerts.js'
import { registerMailCommands } from './commands/mail.js'
import { registerVaultCommands } from './commands/vault.js'

const program = new Command()
  .name('dropslot')
  .description('Dropslot operator CLI: release day, orders, e-mails and catalogue from a terminal.')
  .option('--json', 'print machine-readable JSON instead of text')
  .option('--as <email>', 'the admin to record in the audit log (default: the OS user)')
  .option('--verbose', 'write the operations log (info, or LOG_LEVEL) on stderr, not only warnings')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  .hook('preAction', (_program, command) => {
    const level = cliLogLevel({
      command: command.name(),
      verbose: program.opts().verbose,
      env: process.env,
    })
    if (level) process.env.LOG_LEVEL = level
  })

registerUserCommands(program)
registerPromoCommands(program)
registerReleaseCommands(program)
registerOrderCommands(program)
registerEmailCommands(program)
registerAcoCommands(program)
registerProductCommands(program)
registerCardCommands(program)
registerQueueCommands(program)
registerDrawCommands(program)
registerAlertCommands(program)
registerMailCommands(program)
registerVaultCommands(program)

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
