import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ShieldMiddleware from '@adonisjs/shield/shield_middleware'
import shieldConfig from '#config/shield'

const HSTS = 'strict-transport-security'
const REFERRER_POLICY: [string, string] = ['referrer-policy', 'strict-origin-when-cross-origin']

let shield: ShieldMiddleware | undefined

/**
 * The headers @adonisjs/shield sets, read once from the first answer it makes. They do not vary
 * between requests as configured (config/shield.ts): the content security policy names hosts,
 * never a per-request nonce, and CSRF is off. Shield itself generated a nonce (16 random bytes)
 * and rebuilt the policy on every request, about a fifth of the CPU of the most frequent answer
 * on release day, "sold out" (docs/performance.md). A policy with `@nonce`, or CSRF turned on,
 * keeps shield on every request.
 */
let fixedHeaders: [string, string][] | undefined
let hstsValue: string | undefined
const perRequest =
  shieldConfig.csrf?.enabled === true ||
  Object.values(shieldConfig.csp?.directives ?? {}).some((sources) =>
    // '@nonce', or the function shield turns it into once it has read the configuration.
    (Array.isArray(sources) ? sources : [sources]).some(
      (source) => source === '@nonce' || typeof source === 'function'
    )
  )

function headerValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  return Array.isArray(value) ? value.join(', ') : String(value)
}

/** Runs shield once on this request and keeps every header it set (on either response). */
async function learnHeaders(ctx: HttpContext) {
  shield ??= await app.container.make(ShieldMiddleware)
  const names = () =>
    [ctx.response.response.getHeaders(), ctx.response.getHeaders()].flatMap((source) =>
      Object.entries(source).map(([name, value]) => [name.toLowerCase(), value] as const)
    )
  const before = new Set(names().map(([name]) => name))
  await shield.handle(ctx, async () => {})
  // Only what shield added (on Adonis's response or, for the policy, on node's).
  const headers = new Map<string, string>()
  for (const [name, value] of names()) {
    const text = headerValue(value)
    if (!before.has(name) && text !== undefined) headers.set(name, text)
  }
  hstsValue = headers.get(HSTS)
  headers.delete(HSTS)
  fixedHeaders = [...headers, REFERRER_POLICY]
}

/**
 * Security headers on every answer: the content security policy, X-Frame-Options, nosniff and
 * HSTS as @adonisjs/shield makes them (config/shield.ts), plus Referrer-Policy; HSTS only on
 * answers served over HTTPS. It runs first among the server middleware, before the static
 * files, the storefront fallback, the API and the error handler, so all of them carry the
 * headers.
 */
export default class SecurityHeadersMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const response = ctx.response
    if (perRequest) {
      shield ??= await app.container.make(ShieldMiddleware)
      await shield.handle(ctx, async () => {})
      response.header(REFERRER_POLICY[0], REFERRER_POLICY[1])
      if (ctx.request.protocol() !== 'https') response.removeHeader(HSTS)
      return next()
    }
    if (fixedHeaders === undefined) {
      await learnHeaders(ctx)
      // Shield wrote the policy on the raw response: from now on they all go through ours.
      for (const [name] of fixedHeaders!) response.response.removeHeader(name)
      if (hstsValue !== undefined) response.removeHeader(HSTS)
    }
    for (const [name, value] of fixedHeaders!) response.header(name, value)
    if (hstsValue !== undefined && ctx.request.protocol() === 'https') {
      response.header(HSTS, hstsValue)
    }
    return next()
  }
}
