import { randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import type User from '#accounts/models/user'
import { AppError } from '#core/exceptions/app_error'
import dropslotConfig from '#config/dropslot'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import { orderCardData } from '#orders/services/order_card_data'
import { orderQueries } from '#orders/services/order_queries'
import { profileService } from '#profiles/services/profile_service'
import { notifications } from '#notifications/services/notification_service'
import { newsletterService } from '#notifications/services/newsletter_service'
import { paymentService } from '#payments/services/payment_service'

export const WRONG_PASSWORD = 'Your password is not correct.'

export function activeOrdersMessage() {
  return (
    'You have slots waiting for release day. You can delete your account once they are ' +
    `checked out; to cancel one, write to ${dropslotConfig.supportEmail}.`
  )
}

/**
 * Deleting an account. The customer's card data goes everywhere it was: the customer and its
 * saved card at the gateway, every profile (sealed cards included), and the number and CVV of
 * every order's card copy. The orders stay, with the name, e-mail, product and amounts on them:
 * they are the records the law needs. The account row stays too (orders point to it), emptied of
 * personal data, so its e-mail can sign up again. Refused while an order is still active: its
 * card copy is what release day checks out with.
 */
export class AccountDeletion {
  /** The customer's own request, confirmed with their password. */
  async byCustomer(user: User, password: unknown, ip: string | null) {
    const valid =
      typeof password === 'string' &&
      password.length > 0 &&
      (await hash.verify(user.password, password))
    if (!valid) {
      throw AppError.unprocessable(WRONG_PASSWORD, { password: WRONG_PASSWORD }, 'wrong_password')
    }
    await this.delete(user, {
      actor: { id: user.id, label: `customer ${user.uuid}` },
      ip,
      via: 'customer',
    })
  }

  async delete(user: User, who: { actor: AuditActor; ip?: string | null; via: string }) {
    if (user.deletedAt) return
    if ((await orderQueries.countFor(user.id, { open: true })) > 0) {
      throw AppError.conflict(activeOrdersMessage(), 'active_orders')
    }
    // The gateway first: if it cannot be reached, nothing here has changed yet.
    if (user.gatewayCustomerId) {
      await paymentService.deleteCustomer({ userId: user.id, customerId: user.gatewayCustomerId })
    }
    const purgedOrders = await orderCardData.purgeAllOf(user.id)

    const formerEmail = user.email
    await db.transaction(async (trx) => {
      await profileService.deleteAllOf(user.id, trx)
      await trx.from('auth_access_tokens').where('tokenable_id', user.id).delete()
      await trx.from('password_reset_tokens').where('user_id', user.id).delete()
      await notifications.dropQueuedFor(user.id, trx)
      await newsletterService.forget(formerEmail, trx)
      user.useTransaction(trx)
      user.merge({
        email: `deleted-${user.uuid}@deleted.invalid`,
        password: randomBytes(32).toString('base64url'),
        name: 'Deleted customer',
        firstName: null,
        lastName: null,
        phone: null,
        role: 'customer',
        billingAddress: null,
        adToken: null,
        gatewayCustomerId: null,
        cardPaymentMethodId: null,
        cardBrand: null,
        cardLast4: null,
        cardFingerprint: null,
        cardExpMonth: null,
        cardExpYear: null,
        deletedAt: DateTime.now(),
      })
      await user.save()
      await auditLog.record({
        actor: who.actor,
        ip: who.ip ?? null,
        action: 'customer.delete',
        subjectType: 'user',
        subjectId: user.uuid,
        meta: { via: who.via, orders: purgedOrders },
        client: trx,
      })
    })
  }
}

export const accountDeletion = new AccountDeletion()
