import type { Command } from 'commander'
import { randomBytes } from 'node:crypto'
import { bootApp } from '../app.js'
import { printResult } from '../output.js'

export function registerUserCommands(program: Command) {
  program
    .command('users:create-admin')
    .description('Create an admin account, or promote an existing account to admin')
    .argument('<email>', 'e-mail address of the admin')
    .option('--password <password>', 'password (at least 8 characters); generated when left out')
    .option('--name <name>', 'display name', 'Dropslot Admin')
    .action(async (email: string, options: { password?: string; name: string }) => {
      await bootApp()
      const { accountService } = await import('#accounts/services/account_service')
      const password = options.password ?? randomBytes(12).toString('base64url')
      const { user, created } = await accountService.createAdmin({
        email,
        password,
        name: options.name,
      })
      const generated = options.password ? undefined : password
      printResult(
        program.opts(),
        { success: true, created, email: user.email, uuid: user.uuid, password: generated },
        [
          created ? `Created admin ${user.email}` : `Promoted ${user.email} to admin`,
          ...(generated && created ? [`Password (shown once): ${generated}`] : []),
        ]
      )
    })
}
