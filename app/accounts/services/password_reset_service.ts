import { DateTime } from 'luxon'
import { createHash, randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import User from '#accounts/models/user'
import PasswordResetToken from '#accounts/models/password_reset_token'
import dropslotConfig from '#config/dropslot'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows } from '#core/helpers/db_errors'
import { notifications } from '#notifications/services/notification_service'
import { templates } from '#notifications/templates'
import { sqlTime } from '#core/helpers/sql_time'

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export const INVALID_RESET_LINK =
  'This reset link is invalid or has expired. Please ask for a new one.'

/**
 * Password reset by e-mailed link: the token is random, stored only as a hash, expires, and
 * works once. Asking for a reset never reveals whether the e-mail has an account.
 */
export class PasswordResetService {
  async request(email: string): Promise<void> {
    const user = await User.findBy('email', email)
    if (!user) return

    const token = randomBytes(32).toString('base64url')
    const ttl = dropslotConfig.passwordResetTtlMinutes
    await PasswordResetToken.create({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: DateTime.now().plus({ minutes: ttl }),
      usedAt: null,
    })
    const resetUrl = `${dropslotConfig.appUrl}/reset?token=${encodeURIComponent(token)}`
    await notifications.send({
      to: user.email,
      template: 'password_reset',
      message: templates.passwordReset(resetUrl, ttl),
      userId: user.id,
    })
  }

  async reset(token: string, newPassword: string): Promise<void> {
    const record = await PasswordResetToken.findBy('tokenHash', hashToken(token))
    if (!record || record.usedAt || record.expiresAt <= DateTime.now()) {
      throw AppError.badRequest(INVALID_RESET_LINK, 'invalid_reset_token')
    }

    await db.transaction(async (trx) => {
      // Claiming the token with a conditional update makes it single-use even if two resets race.
      const claimed = await trx
        .from('password_reset_tokens')
        .where('id', record.id)
        .whereNull('used_at')
        .update({ used_at: sqlTime() })
      if (affectedRows(claimed) !== 1) {
        throw AppError.badRequest(INVALID_RESET_LINK, 'invalid_reset_token')
      }
      const user = await User.findOrFail(record.userId, { client: trx })
      user.password = newPassword
      await user.save()
      // A new password signs out every session that used the old one, and every other reset
      // link of the account stops working: an older e-mail must not reset it again.
      await trx.from('auth_access_tokens').where('tokenable_id', user.id).delete()
      await trx
        .from('password_reset_tokens')
        .where('user_id', user.id)
        .whereNull('used_at')
        .update({ used_at: sqlTime() })
    })
  }
}

export const passwordResetService = new PasswordResetService()
