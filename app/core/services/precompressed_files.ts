import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'

/** Vite's content-hashed bundles: a new build gives them new names, so they never change. */
const HASHED_ASSET = /^\/(admin\/)?assets\//

/** Cache-Control of a public file: hashed assets for a year, entry pages revalidated. */
export function cacheControlFor(path: string): string | null {
  if (HASHED_ASSET.test(path)) return 'public, max-age=31536000, immutable'
  // The service worker is checked for a new version on every visit (a stale one keeps old code).
  if (
    path.endsWith('.html') ||
    path === '/' ||
    path === '/admin' ||
    path === '/admin/' ||
    path === '/sw.js'
  ) {
    return 'no-cache'
  }
  return null
}

const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const

/** The encodings the client accepts, by the rules of Accept-Encoding (q=0 refuses one). */
function accepted(header: string | undefined): Set<string> {
  const names = new Set<string>()
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
    if (name && !(q && Number(q.slice(2)) === 0)) names.add(name)
  }
  return names
}

/**
 * Sends the brotli or gzip copy written at build time (scripts/precompress.js) of a public file,
 * when there is one and the client accepts it; false leaves the request to the file server.
 */
export async function servePrecompressed(ctx: HttpContext): Promise<boolean> {
  let path: string
  try {
    path = decodeURIComponent(ctx.request.url())
  } catch {
    return false
  }
  const extension = extname(path)
  if (!extension) return false
  const publicDir = app.publicPath()
  const file = normalize(join(publicDir, path))
  if (!file.startsWith(publicDir + sep)) return false
  const wanted = accepted(ctx.request.header('accept-encoding'))
  for (const encoding of ENCODINGS) {
    if (!wanted.has(encoding.name)) continue
    const info = await stat(file + encoding.suffix).catch(() => null)
    if (!info?.isFile()) continue
    const etag = `W/"${encoding.name}-${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`
    const response = ctx.response
    response.header('Vary', 'Accept-Encoding')
    response.header('ETag', etag)
    response.header('Last-Modified', info.mtime.toUTCString())
    const cacheControl = cacheControlFor(path)
    if (cacheControl) response.header('Cache-Control', cacheControl)
    if (ctx.request.header('if-none-match') === etag) {
      response.status(304).send('')
      return true
    }
    response.type(extension)
    response.header('Content-Encoding', encoding.name)
    response.header('Content-Length', String(info.size))
    if (ctx.request.method() === 'HEAD') {
      response.status(200).send('')
    } else {
      response.stream(createReadStream(file + encoding.suffix))
    }
    return true
  }
  return false
}
