import { AccessTokensLucidUserProvider } from '@adonisjs/auth/access_tokens'
import type { AccessToken } from '@adonisjs/auth/access_tokens'
import type { Secret } from '@adonisjs/core/helpers'
import type User from '#accounts/models/user'

type UserModel = typeof User

let userModel: UserModel | undefined
async function loadUserModel(): Promise<UserModel> {
  if (!userModel) {
    const imported = await import('#accounts/models/user')
    userModel = imported.default
  }
  return userModel
}

/**
 * The user provider of the API guard, one per request: `verifyToken` reads the token and its
 * customer in one query (AccessTokensProvider.verifyWithTokenable) and keeps the customer, so
 * the guard's `findById` that follows needs no second query.
 */
export class TokenUserProvider extends AccessTokensLucidUserProvider<'accessTokens', UserModel> {
  private verifiedUser: User | null = null

  constructor() {
    super({ tokens: 'accessTokens', model: async () => ({ default: await loadUserModel() }) })
  }

  async getModel() {
    return loadUserModel()
  }

  async verifyToken(tokenValue: Secret<string>): Promise<AccessToken | null> {
    const model = await loadUserModel()
    const verified = await model.accessTokens.verifyWithTokenable(tokenValue)
    this.verifiedUser = verified?.tokenable ?? null
    return verified?.token ?? null
  }

  async findById(identifier: string | number | BigInt) {
    const user = this.verifiedUser
    if (user && String(user.id) === String(identifier)) return this.createUserForGuard(user)
    return super.findById(identifier)
  }
}
