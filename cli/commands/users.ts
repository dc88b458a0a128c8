import type { Command } from 'commander'
import { randomBytes } from 'node:crypto'
import { bootApp } from '../app.js'
import { printResult } from '../output.js'
import { cliActor } from '../actor.js'

export function registerUserCommands(program: Command) {
  program
    .command('users:create-admin')
    .description('Create an admin account, or promote an existing account to admin')
    .argument('<email>', 'e-mail address of the admin')
    .option(
      '--password <password>',
      'password (at least 8 characters); generated for a new account when left out; for an ' +
        'existing account it replaces the password and signs it out everywhere'
    )
    .option('--name <name>', 'display name', 'Dropslot Admin')
    .action(async (email: string, options: { password?: string; name: string }) => {
      await bootApp()
      const actor = await cliActor(program)
      const { accountService } = await import('#accounts/services/account_service')
      const { auditLog } = await import('#core/services/audit_log_service')
      const password = options.password ?? randomBytes(12).toString('base64url')
      const { user, created, passwordSet } = await accountService.createAdmin({
        email,
        password,
        name: options.name,
        setPassword: options.password !== undefined,
      })
      await auditLog.record({
        actor,
        action: created ? 'admin.create' : 'admin.promote',
        subjectType: 'user',
        subjectId: user.uuid,
        meta: { email: user.email, passwordSet, via: 'cli' },
      })
      const generated = options.password || !created ? undefined : password
      printResult(
        program.opts(),
        {
          success: true,
          created,
          passwordSet,
          email: user.email,
          uuid: user.uuid,
          password: generated,
        },
        [
          created ? `Created admin ${user.email}` : `Promoted ${user.email} to admin`,
          ...(!created && passwordSet
            ? ['Password replaced; its other sessions are signed out']
            : []),
          ...(generated ? [`Password (shown once): ${generated}`] : []),
        ]
      )
    })
}
