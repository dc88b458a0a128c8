import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import StaticMiddleware from '@adonisjs/static/static_middleware'
import { isApiPath } from '#core/helpers/api_paths'
import { servePrecompressed } from '#core/services/precompressed_files'

// One file server for the process (the container builds a new one, with its own serve-static
// instance, every time it is asked).
let files: StaticMiddleware | undefined

/**
 * Serves public/ (storefront, admin console, their assets) through @adonisjs/static, but only
 * for GET and HEAD requests off the API: asking the file system (a stat per request) and
 * wrapping the rest of the pipeline in its listeners cost more than the API call itself on the
 * release-day hot path (docs/performance.md). Text assets go out as the brotli or gzip copy
 * written at build time when the client accepts it (`precompressed_files.ts`).
 */
export default class StaticFilesMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const method = ctx.request.method()
    const url = ctx.request.url()
    if (
      (method !== 'GET' && method !== 'HEAD') ||
      isApiPath(url) ||
      url === '/health' ||
      url === '/metrics'
    ) {
      return next()
    }
    if (await servePrecompressed(ctx)) return
    files ??= await app.container.make(StaticMiddleware)
    return files.handle(ctx, next)
  }
}
