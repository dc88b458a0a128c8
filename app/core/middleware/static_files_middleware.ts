import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import StaticMiddleware from '@adonisjs/static/static_middleware'

/** Paths that are never files in public/: the API and the health check. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url === '/health'
}

// One file server for the process (the container builds a new one, with its own serve-static
// instance, every time it is asked).
let files: StaticMiddleware | undefined

/**
 * Serves public/ (storefront, admin console, their assets) through @adonisjs/static, but only
 * for GET and HEAD requests off the API: asking the file system (a stat per request) and
 * wrapping the rest of the pipeline in its listeners cost more than the API call itself on the
 * release-day hot path (docs/performance.md).
 */
export default class StaticFilesMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const method = ctx.request.method()
    if ((method !== 'GET' && method !== 'HEAD') || isApiPath(ctx.request.url())) return next()
    files ??= await app.container.make(StaticMiddleware)
    return files.handle(ctx, next)
  }
}
