import { userQueries } from '#accounts/services/user_queries'
import { isStaffRole } from '#shared/staff_roles'
import { profileQueries } from '#profiles/services/profile_queries'
import { AppError } from '#core/exceptions/app_error'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { customerList } from '#admin/services/list_definitions'
import { presentCustomer } from '#admin/services/presenters'
import { runList } from '#core/services/rest_query'
import { accountDeletion } from '#accounts/services/account_deletion'
import { accountService, type SupportChanges } from '#accounts/services/account_service'

type Who = Pick<AuditEntry, 'actor' | 'ip'>

export type CustomerChanges = SupportChanges

/**
 * Customers for support: contact details and role. No card data, no password, no tokens;
 * e-mail changes stay with the customer (they log in with it).
 */
export class AdminCustomersService {
  list(qs: Record<string, unknown>) {
    return runList(userQueries.query(), customerList, qs, presentCustomer)
  }

  async find(uuid: string) {
    const query = userQueries.query().where('users.uuid', uuid)
    customerList.decorate!(query)
    const user = await query.first()
    if (!user) throw AppError.notFound('Customer not found.', 'customer_not_found')
    return user
  }

  /**
   * One customer with their profiles named (for support and for placing an order on their
   * behalf): profile name and town only, never the card.
   */
  async show(uuid: string) {
    const user = await this.find(uuid)
    const profiles = await profileQueries.forUser(user.id)
    return {
      ...presentCustomer(user),
      profiles: profiles.map((profile) => ({
        id: profile.publicId,
        profileName: profile.profileName,
        city: profile.shipping?.city ?? null,
        state: profile.shipping?.state ?? null,
        country: profile.shipping?.country ?? null,
      })),
    }
  }

  async update(
    uuid: string,
    changes: CustomerChanges,
    who: Who & { assertMayChangeRoles?: () => Promise<void> }
  ) {
    const user = await this.find(uuid)
    if (changes.role !== undefined && changes.role !== user.role) {
      if (user.id === who.actor?.id) {
        const message = 'You cannot change your own role; ask another owner.'
        throw AppError.unprocessable(message, { role: message })
      }
      await who.assertMayChangeRoles?.()
    }
    const actor = { actor: who.actor, ip: who.ip }
    const changed = await accountService.updateBySupport(user.uuid, changes)
    if (Object.keys(changed).length === 0) return presentCustomer(user)
    // The admin middleware reads the role on every request: a demoted staff member loses the
    // console at their next call, without losing their customer session.
    await auditLog.record({
      ...actor,
      action: changed.role ? 'customer.role_change' : 'customer.update',
      subjectType: 'customer',
      subjectId: user.uuid,
      meta: { email: user.email, changed },
    })
    return this.show(user.uuid)
  }

  /**
   * Deletes a customer's account and card data, as the customer can from the storefront (refused
   * while an order is active). Admin accounts are demoted first, so no one deletes an admin by a
   * slip of the hand, nor themselves.
   */
  async destroy(uuid: string, who: Who) {
    const user = await this.find(uuid)
    if (isStaffRole(user.role)) {
      throw AppError.conflict(
        'This account is staff: change its role to customer before deleting it.',
        'admin_account'
      )
    }
    const shown = presentCustomer(user)
    await accountDeletion.delete(user, {
      actor: who.actor ?? { label: 'admin' },
      ip: who.ip,
      via: 'admin',
    })
    return shown
  }
}

export const adminCustomers = new AdminCustomersService()
