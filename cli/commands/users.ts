import type { Command } from 'commander'
import { randomBytes } from 'node:crypto'
import { bootApp } from '../app.js'
import { printResult, UsageError } from '../output.js'
import { cliActor } from '../actor.js'
import { isStaffRole, STAFF_ROLES } from '#shared/staff_roles'

export function registerUserCommands(program: Command) {
  program
    .command('users:create-admin')
    .description(
      'Create a staff account (an owner unless --role says otherwise), or give an existing ' +
        'account that staff role'
    )
    .argument('<email>', 'e-mail address of the staff member')
    .option('--role <role>', `staff role: ${STAFF_ROLES.join(', ')}`, 'owner')
    .option(
      '--password <password>',
      'password (at least 8 characters); generated for a new account when left out; for an ' +
        'existing account it replaces the password and signs it out everywhere'
    )
    .option('--name <name>', 'display name', 'Dropslot Admin')
    .action(async (email: string, options: { password?: string; name: string; role: string }) => {
      if (!isStaffRole(options.role)) {
        throw new UsageError(`--role ${options.role}: give one of ${STAFF_ROLES.join(', ')}`)
      }
      const role = options.role
      await bootApp()
      const actor = await cliActor(program, 'staff')
      const { accountService } = await import('#accounts/services/account_service')
      const { auditLog } = await import('#core/services/audit_log_service')
      const password = options.password ?? randomBytes(12).toString('base64url')
      const { user, created, passwordSet } = await accountService.createAdmin({
        email,
        password,
        name: options.name,
        role,
        setPassword: options.password !== undefined,
      })
      await auditLog.record({
        actor,
        action: created ? 'admin.create' : 'admin.promote',
        subjectType: 'user',
        subjectId: user.uuid,
        meta: { email: user.email, role, passwordSet, via: 'cli' },
      })
      const { secondFactor: factors } = await import('#accounts/services/second_factor')
      const secondFactor = await factors.stateOf(user.id)
      const generated = options.password || !created ? undefined : password
      printResult(
        program.opts(),
        {
          success: true,
          created,
          passwordSet,
          role,
          email: user.email,
          uuid: user.uuid,
          password: generated,
          secondFactor,
        },
        [
          created ? `Created ${role} ${user.email}` : `Made ${user.email} ${role}`,
          ...(!created && passwordSet
            ? ['Password replaced; its other sessions are signed out']
            : []),
          ...(generated ? [`Password (shown once): ${generated}`] : []),
          secondFactor === 'enrol'
            ? 'Second factor: none yet. At the first sign-in the console asks to add an authenticator app (a QR code); nothing else opens before that.'
            : 'Second factor: the authenticator app already added (users:reset-factors removes it).',
        ]
      )
    })

  program
    .command('users:reset-factors')
    .description(
      'Remove every second factor of a staff account (its authenticator and recovery codes) and ' +
        'sign it out everywhere: the way back for a lost device. It adds a new one at its next ' +
        'sign-in. Audited'
    )
    .argument('<email>', 'e-mail address of the account')
    .requiredOption('--reason <text>', 'why (for the audit log), e.g. "phone lost, ticket 481"')
    .action(async (email: string, options: { reason: string }) => {
      await bootApp()
      const actor = await cliActor(program, 'staff')
      const { userQueries } = await import('#accounts/services/user_queries')
      const { secondFactor } = await import('#accounts/services/second_factor')
      const { auditLog } = await import('#core/services/audit_log_service')
      const user = await userQueries.findByEmail(email)
      if (!user) throw new UsageError(`No account has the e-mail ${email}.`)
      if (options.reason.trim().length < 3) throw new UsageError('Give a reason (--reason).')
      await secondFactor.reset(user.id)
      await auditLog.record({
        actor,
        action: 'factor.reset',
        subjectType: 'user',
        subjectId: user.uuid,
        reason: options.reason.trim().slice(0, 255),
        meta: { email: user.email, via: 'cli' },
      })
      printResult(program.opts(), { success: true, email: user.email, uuid: user.uuid }, [
        `Removed the second factors of ${user.email} and signed it out everywhere.`,
        'At the next sign-in it adds an authenticator again.',
      ])
    })
}
