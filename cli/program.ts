import { Command } from 'commander'
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

/**
 * The `dropslot` program: every command, its arguments and options. Defining it loads no part of
 * the application (each command boots it when it runs), so `--help` and the generated reference
 * (docs/cli.md) read it as it is.
 */
export function createProgram(): Command {
  const program = new Command()
    .name('dropslot')
    .description(
      'Dropslot operator CLI: release day, orders, e-mails and catalogue from a terminal.'
    )
    .option('--json', 'print machine-readable JSON instead of text')
    .option('--as <email>', 'the admin to record in the audit log (default: the OS user)')
    .option(
      '--verbose',
      'write the operations log (info, or LOG_LEVEL) on stderr, not only warnings'
    )
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
  return program
}
