import db from '@adonisjs/lucid/services/db'
import { errors as authErrors } from '@adonisjs/auth'
import User, { type BillingAddress, type Role } from '#accounts/models/user'
import { secondFactor } from '#accounts/services/second_factor'
import { signInLockout } from '#accounts/services/sign_in_lockout'
import { auditLog } from '#core/services/audit_log_service'
import { isStaffRole, type StaffRole } from '#shared/staff_roles'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { notifications } from '#notifications/services/notification_service'
import { emailKeys } from '#notifications/services/email_keys'
import { templates } from '#notifications/templates'
import { orderQueries } from '#orders/services/order_queries'
import { adminAccountValidator } from '#accounts/validators/account_validators'

export type NewAccount = {
  email: string
  password: string
  name?: string
  firstName?: string | null
  lastName?: string | null
  phone?: string | null
  adToken?: string | null
}

/** What support may change on a customer's account. */
export type SupportChanges = {
  name?: string
  firstName?: string | null
  lastName?: string | null
  phone?: string | null
  role?: Role
}

export const INVALID_CREDENTIALS = 'Email or password is incorrect.'

/** Where a sign-in comes from, for the audit log and the staff's list of sessions. */
export type SignInOrigin = { ip?: string | null; agent?: string | null }

/**
 * Accounts: registration, login, logout and the customer's own details.
 */
export class AccountService {
  async register(input: NewAccount): Promise<{ user: User; token: string }> {
    const name =
      input.name?.trim() || [input.firstName, input.lastName].filter(Boolean).join(' ').trim()
    let user: User
    try {
      // The unique index on e-mail decides between simultaneous registrations: exactly one wins.
      user = await User.create({
        email: input.email,
        password: input.password,
        name,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        phone: input.phone ?? null,
        adToken: input.adToken ?? null,
        role: 'customer',
      })
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppError.conflict(
          'An account with this e-mail already exists. Log in or reset your password.',
          'email_taken'
        )
      }
      throw error
    }
    await notifications.send({
      to: user.email,
      template: 'welcome',
      message: templates.welcome(user.firstName ?? user.name),
      userId: user.id,
      dedupeKey: emailKeys.welcome(user),
    })
    return { user, token: await this.issueToken(user) }
  }

  /**
   * Takes back an account this request has just created, when the request is refused after all
   * (one-step checkout losing the last slot to a faster buyer): its tokens, its e-mails not sent
   * yet and the account itself, in one transaction. Never for an account with orders.
   */
  async discardNew(user: User): Promise<boolean> {
    return db.transaction(async (trx) => {
      if ((await orderQueries.countFor(user.id, { trx })) > 0) return false
      await trx.from('auth_access_tokens').where('tokenable_id', user.id).delete()
      await notifications.dropQueuedFor(user.id, trx)
      await trx.from('users').where('id', user.id).delete()
      return true
    })
  }

  /**
   * A customer gets a full token; a staff account (or a customer who added an authenticator) a
   * token that only the second-factor routes take (10 minutes) until a factor completes it. Ten failures for one address lock it for 30
   * minutes (`signInLockout`), whether or not an account has it.
   */
  async login(
    email: string,
    password: string,
    from: SignInOrigin = {}
  ): Promise<{ user: User; token: string; factorPending: boolean }> {
    const address = email.trim().toLowerCase()
    await signInLockout.assertOpen(address)
    let user: User
    try {
      user = await User.verifyCredentials(address, password)
    } catch (error) {
      if (error instanceof authErrors.E_INVALID_CREDENTIALS) {
        await this.signInFailed(address, from)
        throw new AppError(INVALID_CREDENTIALS, { status: 400, code: 'invalid_credentials' })
      }
      throw error
    }
    await signInLockout.clear(address)
    if (!user.isStaff) {
      // A customer who added an authenticator is asked for it, as staff are.
      if (!(await secondFactor.isConfirmed(user.id))) {
        return { user, token: await this.issueToken(user), factorPending: false }
      }
      return { user, token: await secondFactor.pendingToken(user, from), factorPending: true }
    }
    const token = await secondFactor.pendingToken(user, from)
    await auditLog.record({
      actor: { id: user.id, email: user.email },
      action: 'sign_in.password',
      subjectType: 'user',
      subjectId: user.uuid,
      ip: from.ip ?? null,
      meta: { agent: from.agent ?? null, role: user.role },
    })
    return { user, token, factorPending: true }
  }

  /** A failure counts towards the address's lockout; a staff account's failures are audited. */
  private async signInFailed(address: string, from: SignInOrigin) {
    const locked = await signInLockout.recordFailure(address)
    const account = await User.query().where('email', address).select('id', 'uuid', 'role').first()
    if (!locked && !account?.isStaff) return
    await auditLog.record({
      actor: { label: 'sign-in' },
      action: locked ? 'sign_in.locked' : 'sign_in.failed',
      subjectType: account ? 'user' : null,
      subjectId: account?.uuid ?? null,
      ip: from.ip ?? null,
      meta: { email: address, agent: from.agent ?? null },
    })
  }

  async logout(user: User & { currentAccessToken?: { identifier: string | number | BigInt } }) {
    if (user.currentAccessToken) {
      await User.accessTokens.delete(user, user.currentAccessToken.identifier)
    }
  }

  async updateDetails(user: User, updates: { name?: string; email?: string; phone?: string }) {
    if (updates.name !== undefined) user.name = updates.name
    if (updates.phone !== undefined) user.phone = updates.phone
    if (updates.email !== undefined) user.email = updates.email
    try {
      await user.save()
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppError.unprocessable('This e-mail is already used by another account.', {
          email: 'This e-mail is already used by another account.',
        })
      }
      throw error
    }
    return user
  }

  /**
   * Support's changes to an account (name, phone, role); e-mail changes stay with the customer.
   * Returns what changed, from and to; nothing is written when nothing changed.
   */
  async updateBySupport(uuid: string, changes: SupportChanges) {
    const user = await User.findByOrFail('uuid', uuid)
    const changed: Record<string, { from: unknown; to: unknown }> = {}
    for (const key of ['name', 'firstName', 'lastName', 'phone', 'role'] as const) {
      const next = changes[key]
      if (next !== undefined && next !== user[key]) {
        changed[key] = { from: user[key], to: next }
        user.merge({ [key]: next })
      }
    }
    if (Object.keys(changed).length > 0) {
      await db.transaction(async (trx) => {
        user.useTransaction(trx)
        await user.save()
        // A customer made staff signs in again: their customer tokens never saw a second factor.
        const wasStaff = isStaffRole(changed.role?.from)
        if (changed.role && !wasStaff && isStaffRole(changed.role.to)) {
          await trx.from('auth_access_tokens').where('tokenable_id', user.id).delete()
        }
      })
    }
    return changed
  }

  async setBillingAddress(user: User, address: BillingAddress) {
    user.billingAddress = address
    await user.save()
    return user
  }

  /**
   * `users:create-admin`: a new staff account, or an existing account given the role. For an
   * existing account a password given on purpose (`setPassword`) replaces its password, and its
   * tokens and reset links stop working, as after a password reset.
   */
  async createAdmin(input: {
    email: string
    password: string
    name: string
    role?: StaffRole
    setPassword?: boolean
  }) {
    const role = input.role ?? 'owner'
    const payload = await adminAccountValidator.validate({
      email: input.email,
      password: input.password,
      name: input.name,
    })
    const existing = await User.query()
      .where('email', payload.email)
      .whereNull('deleted_at')
      .first()
    if (existing) {
      await db.transaction(async (trx) => {
        existing.useTransaction(trx)
        const wasStaff = existing.isStaff
        existing.role = role
        if (input.setPassword) {
          existing.password = payload.password
          await trx.from('password_reset_tokens').where('user_id', existing.id).delete()
        }
        // Its other sessions end; a customer made staff signs in again through a second factor.
        if (input.setPassword || !wasStaff) {
          await trx.from('auth_access_tokens').where('tokenable_id', existing.id).delete()
        }
        await existing.save()
      })
      return { user: existing, created: false, passwordSet: Boolean(input.setPassword) }
    }
    const user = await User.create({ ...payload, role })
    return { user, created: true, passwordSet: true }
  }

  async issueToken(user: User): Promise<string> {
    const token = await User.accessTokens.create(user)
    return token.value!.release()
  }

  async listUsers() {
    return User.query().orderBy('id', 'asc')
  }
}

export const accountService = new AccountService()
