import { hostname, userInfo } from 'node:os'
import type { Command } from 'commander'
import type { Permission } from '#shared/staff_roles'
import { UsageError } from './output.js'

export type CliActor = { id: number | null; email: string | null; label: string }

/** The operator's login name on this machine, or "unknown" where the OS cannot say. */
function osUser(): string {
  try {
    return userInfo().username || 'unknown'
  } catch {
    return process.env.USER || process.env.LOGNAME || 'unknown'
  }
}

/**
 * Who runs a CLI command, for the audit log: the staff member named with the global `--as EMAIL`
 * option (who must exist and hold the command's permission, as in the console), else the OS user
 * on this host (`cli:ops@host`), trusted as the machine's operator. Call it after `bootApp()`.
 */
export async function cliActor(program: Command, permission: Permission): Promise<CliActor> {
  const email = (program.opts().as as string | undefined)?.trim().toLowerCase()
  if (!email) return { id: null, email: null, label: `cli:${osUser()}@${hostname()}` }
  const { default: User } = await import('#accounts/models/user')
  const { bouncerFor } = await import('#start/authorization')
  const user = await User.query().where('email', email).first()
  // The same rules as the console's: the accounts module's StaffPolicy.
  const staff = user ? bouncerFor(user).with('StaffPolicy') : null
  if (!user || !staff || (await staff.denies('useConsole'))) {
    throw new UsageError(`--as ${email}: no staff account has this e-mail address`)
  }
  if (await staff.denies('perform', permission)) {
    throw new UsageError(`--as ${email}: the role ${user.role} does not allow this command`)
  }
  return { id: user.id, email: user.email, label: `cli:${user.email}` }
}
