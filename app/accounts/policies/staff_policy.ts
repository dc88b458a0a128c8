import { BasePolicy } from '@adonisjs/bouncer'
import type User from '#accounts/models/user'
import { type Permission, roleCan } from '#shared/staff_roles'

/**
 * Who may work the admin console, its API and the operator CLI's `--as`: staff (owner, finance,
 * support, viewer); what each may do is shared/staff_roles.ts's table.
 */
export default class StaffPolicy extends BasePolicy {
  useConsole(user: User) {
    return user.isStaff
  }

  perform(user: User, permission: Permission) {
    return user.isStaff && roleCan(user.role, permission)
  }
}
