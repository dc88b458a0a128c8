import { AccessTokensLucidUserProvider } from '@adonisjs/auth/access_tokens'
import type { AccessToken } from '@adonisjs/auth/access_tokens'
import type { Secret } from '@adonisjs/core/helpers'
import User from '#accounts/models/user'

type UserModel = typeof User

/**
 * The user provider of the API guard, one per request: `verifyToken` reads the token and its
 * customer in one query (AccessTokensProvider.verifyWithTokenable) and keeps the customer, so
 * the guard's `findById` that follows needs no second query.
 */
export class TokenUserProvider extends AccessTokensLucidUserProvider<'accessTokens', UserModel> {
  private verifiedUser: User | null = null

  constructor() {
    super({ tokens: 'accessTokens', model: async () => ({ default: User }) })
  }

  async getModel() {
    return User
  }

  async verifyToken(tokenValue: Secret<string>): Promise<AccessToken | null> {
    const verified = await User.accessTokens.verifyWithTokenable(tokenValue)
    this.verifiedUser = verified?.tokenable ?? null
    return verified?.token ?? null
  }

  async findById(identifier: string | number | BigInt) {
    const user = this.verifiedUser
    if (user && String(user.id) === String(identifier)) return this.createUserForGuard(user)
    return super.findById(identifier)
  }
}
