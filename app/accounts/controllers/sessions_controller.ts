import type { HttpContext } from '@adonisjs/core/http'
import dropslotConfig from '#config/dropslot'
import { consumeAttempt } from '#core/services/rate_limits'
import { accountService } from '#accounts/services/account_service'
import { presentUserInfo } from '#accounts/services/user_presenter'
import { secondFactor } from '#accounts/services/second_factor'
import {
  loginValidator,
  registerAdValidator,
  registerValidator,
} from '#accounts/validators/account_validators'

export default class SessionsController {
  async register({ request, response }: HttpContext) {
    await consumeAttempt(
      'register',
      { ip: request.ip(), email: request.input('email') },
      { requests: dropslotConfig.rateLimits.registerPerHour, duration: '1 hour' }
    )
    const payload = await request.validateUsing(registerValidator)
    const { user, token } = await accountService.register(payload)
    return response.created({ success: true, token, user: presentUserInfo(user) })
  }

  async registerWithAdToken({ request, response }: HttpContext) {
    await consumeAttempt(
      'register',
      { ip: request.ip(), email: request.input('email') },
      { requests: dropslotConfig.rateLimits.registerPerHour, duration: '1 hour' }
    )
    const payload = await request.validateUsing(registerAdValidator)
    const { user, token } = await accountService.register({ ...payload, adToken: payload.adtoken })
    return response.created({ success: true, token, user: presentUserInfo(user) })
  }

  async login({ request }: HttpContext) {
    await consumeAttempt(
      'login',
      { ip: request.ip(), email: request.input('email') },
      { requests: dropslotConfig.rateLimits.loginPerMinute, duration: '1 minute' }
    )
    const { email, password } = await request.validateUsing(loginValidator)
    const { user, token, factorPending } = await accountService.login(email, password, {
      ip: request.ip(),
      agent: request.header('user-agent') ?? null,
    })
    if (!factorPending) return { success: true, token, user: presentUserInfo(user) }
    // The token opens nothing but the factor routes until a factor completes it.
    return {
      success: true,
      token,
      user: presentUserInfo(user),
      secondFactor: await secondFactor.stateOf(user.id),
      methods: await secondFactor.methodsOf(user.id),
    }
  }

  async logout({ auth }: HttpContext) {
    await accountService.logout(auth.use('api').getUserOrFail())
    return { success: true }
  }
}
