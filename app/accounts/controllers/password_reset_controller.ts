import type { HttpContext } from '@adonisjs/core/http'
import dropslotConfig from '#config/dropslot'
import { consumeAttempt } from '#core/services/rate_limits'
import { passwordResetService } from '#accounts/services/password_reset_service'
import {
  forgotPasswordValidator,
  resetPasswordValidator,
} from '#accounts/validators/account_validators'

export const RESET_REQUESTED =
  'If an account exists for that e-mail, we have sent a link to reset the password.'

export default class PasswordResetController {
  async forgot({ request }: HttpContext) {
    await consumeAttempt(
      'forgot',
      { ip: request.ip(), email: request.input('email') },
      { requests: dropslotConfig.rateLimits.forgotPerHour, duration: '1 hour' }
    )
    const { email } = await request.validateUsing(forgotPasswordValidator)
    await passwordResetService.request(email)
    return { success: true, message: RESET_REQUESTED }
  }

  async reset({ request }: HttpContext) {
    await consumeAttempt(
      'reset',
      { ip: request.ip() },
      { requests: dropslotConfig.rateLimits.resetPerHour, duration: '1 hour' },
      (wait) => `Too many reset attempts. Please wait ${wait} and try again.`
    )
    const { hash, password } = await request.validateUsing(resetPasswordValidator)
    await passwordResetService.reset(hash, password)
    return { success: true, message: 'Your password has been changed. Please log in.' }
  }
}
