import { defineConfig } from '@adonisjs/auth'
import { AccessTokensGuard } from '@adonisjs/auth/access_tokens'
import type { GuardConfigProvider } from '@adonisjs/auth/types'
import type { HttpContext } from '@adonisjs/core/http'
import { TokenUserProvider } from '#accounts/services/token_user_provider'
import { TokenCustomerProvider } from '#accounts/services/token_customer_provider'
import { listenedEventsOf } from '#accounts/services/guard_events'
import type { InferAuthenticators, InferAuthEvents, Authenticators } from '@adonisjs/auth/types'

type TokensUserProvider = TokenUserProvider | TokenCustomerProvider

/**
 * The stock access tokens guard with a user provider made per request (each reads the token and
 * its customer in one query), and events handed on only when something listens.
 */
function tokensGuard<Provider extends TokensUserProvider>(
  provider: () => Provider
): GuardConfigProvider<(ctx: HttpContext) => AccessTokensGuard<Provider>> {
  return {
    async resolver(name, app) {
      const emitter = listenedEventsOf(await app.container.make('emitter'))
      return (ctx) => new AccessTokensGuard(name, ctx, emitter, provider())
    },
  }
}

const authConfig = defineConfig({
  default: 'api',
  guards: {
    /** Every signed-in call: the customer (or admin) as a `User` model. */
    api: tokensGuard(() => new TokenUserProvider()),
    /**
     * The same tokens for the checkout: the customer as a plain record of what a purchase reads
     * (`CustomerRecord`), without building a model on the release-day rush's call.
     */
    customer: tokensGuard(() => new TokenCustomerProvider()),
  },
})

export default authConfig

declare module '@adonisjs/auth/types' {
  export interface Authenticators extends InferAuthenticators<typeof authConfig> {}
}
declare module '@adonisjs/core/types' {
  interface EventsList extends InferAuthEvents<Authenticators> {}
}
