import { defineConfig } from '@adonisjs/auth'
import { AccessTokensGuard } from '@adonisjs/auth/access_tokens'
import type { GuardConfigProvider } from '@adonisjs/auth/types'
import type { HttpContext } from '@adonisjs/core/http'
import { TokenUserProvider } from '#accounts/services/token_user_provider'
import type { InferAuthenticators, InferAuthEvents, Authenticators } from '@adonisjs/auth/types'

/**
 * The stock access tokens guard with a user provider per request (TokenUserProvider), which
 * reads the token and its customer in one query.
 */
function apiGuard(): GuardConfigProvider<
  (ctx: HttpContext) => AccessTokensGuard<TokenUserProvider>
> {
  return {
    async resolver(name, app) {
      const emitter = await app.container.make('emitter')
      return (ctx) => new AccessTokensGuard(name, ctx, emitter, new TokenUserProvider())
    },
  }
}

const authConfig = defineConfig({
  default: 'api',
  guards: {
    api: apiGuard(),
  },
})

export default authConfig

declare module '@adonisjs/auth/types' {
  export interface Authenticators extends InferAuthenticators<typeof authConfig> {}
}
declare module '@adonisjs/core/types' {
  interface EventsList extends InferAuthEvents<Authenticators> {}
}
