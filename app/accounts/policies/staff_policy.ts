import { BasePolicy } from '@adonisjs/bouncer'
import type User from '#accounts/models/user'

/** Who may work the admin console, its API and the operator CLI's `--as`: admins only. */
export default class StaffPolicy extends BasePolicy {
  useConsole(user: User) {
    return user.role === 'admin'
  }
}
