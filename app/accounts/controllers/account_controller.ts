import type { HttpContext } from '@adonisjs/core/http'
import { accountService } from '#accounts/services/account_service'
import { presentUserInfo, presentUserSummary } from '#accounts/services/user_presenter'
import {
  billingAddressValidator,
  updateProfileValidator,
} from '#accounts/validators/account_validators'

export default class AccountController {
  async info({ auth }: HttpContext) {
    return presentUserInfo(auth.getUserOrFail())
  }

  async update({ auth, request }: HttpContext) {
    const { updates } = await request.validateUsing(updateProfileValidator)
    const user = await accountService.updateDetails(auth.getUserOrFail(), updates)
    return { success: true, user: presentUserInfo(user) }
  }

  async setBilling({ auth, request }: HttpContext) {
    const { billingAddress } = await request.validateUsing(billingAddressValidator)
    const user = await accountService.setBillingAddress(auth.getUserOrFail(), {
      line1: billingAddress.address1,
      line2: billingAddress.address2 ?? null,
      city: billingAddress.city,
      postal_code: billingAddress.zip,
      state: billingAddress.state,
      country: billingAddress.country ?? 'US',
    })
    return { success: true, user: presentUserInfo(user) }
  }

  async listUsers() {
    const users = await accountService.listUsers()
    return users.map(presentUserSummary)
  }
}
