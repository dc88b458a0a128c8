import { Bouncer } from '@adonisjs/bouncer'
import { HttpContext } from '@adonisjs/core/http'
import type User from '#accounts/models/user'
import { policies } from '#start/policies'

export type AppBouncer = Bouncer<User, Record<never, never>, typeof policies>

/** The policies' bouncer for a user (null: a guest, whom every policy refuses). */
export function bouncerFor(user: User | null | (() => User | null)): AppBouncer {
  return new Bouncer<User, Record<never, never>, typeof policies>(user, {}, policies)
}

/*
| `ctx.bouncer`: made on first use for the request's signed-in customer, so answers that never
| ask (most of a release-day rush) pay nothing for it.
*/
HttpContext.getter(
  'bouncer',
  function (this: HttpContext) {
    return bouncerFor(() => (this.auth.user as User | undefined) ?? null).setContainerResolver(
      this.containerResolver
    )
  },
  true
)

declare module '@adonisjs/core/http' {
  interface HttpContext {
    bouncer: AppBouncer
  }
}
