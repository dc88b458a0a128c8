import { hostname, userInfo } from 'node:os'
import type { Command } from 'commander'
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
 * Who runs a CLI command, for the audit log: the admin named with the global `--as EMAIL`
 * option (who must exist and be an admin), else the OS user on this host (`cli:ops@host`).
 * Call it after `bootApp()`.
 */
export async function cliActor(program: Command): Promise<CliActor> {
  const email = (program.opts().as as string | undefined)?.trim().toLowerCase()
  if (!email) return { id: null, email: null, label: `cli:${osUser()}@${hostname()}` }
  const { default: User } = await import('#accounts/models/user')
  const { bouncerFor } = await import('#start/authorization')
  const user = await User.query().where('email', email).first()
  // The same rule as the console's: the accounts module's StaffPolicy.
  if (!user || (await bouncerFor(user).with('StaffPolicy').denies('useConsole'))) {
    throw new UsageError(`--as ${email}: no admin has this e-mail address`)
  }
  return { id: user.id, email: user.email, label: `cli:${user.email}` }
}
