import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ShieldMiddleware from '@adonisjs/shield/shield_middleware'

let shield: ShieldMiddleware | undefined

/**
 * Security headers on every answer: @adonisjs/shield (config/shield.ts) sets the content
 * security policy, X-Frame-Options, nosniff and HSTS; this adds Referrer-Policy and keeps HSTS
 * to answers served over HTTPS. It runs first among the server middleware, before the static
 * files, the storefront fallback, the API and the error handler, so all of them carry the
 * headers.
 */
export default class SecurityHeadersMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    shield ??= await app.container.make(ShieldMiddleware)
    return shield.handle(ctx, () => {
      ctx.response.header('Referrer-Policy', 'strict-origin-when-cross-origin')
      if (ctx.request.protocol() !== 'https') {
        ctx.response.removeHeader('Strict-Transport-Security')
      }
      return next()
    })
  }
}
