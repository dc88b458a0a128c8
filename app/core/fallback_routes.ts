import { stat, readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { isApiPath } from '#core/helpers/api_paths'

const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dropslot</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5">
<h1>Dropslot</h1>
<p>Slots for release day: we check out limited sneakers and streetwear for you. The storefront is
not built yet: run <code>npm run build:storefront</code>. The API is live at
<a href="/api/products">/api/products</a>; health at <a href="/health">/health</a>.</p>
</body></html>`

/** Requests for a missing file (a stale asset hash, a wrong image path) are 404s, not the app. */
const ASSET_PATH =
  /^\/(assets|images|admin\/assets)\/|\.(js|mjs|css|map|svg|png|jpe?g|webp|avif|gif|ico|woff2?|json|txt)$/i

let cached: { mtimeMs: number; html: string } | null = null

/** The built index.html, re-read only when a new build replaced it. */
async function storefrontIndex(): Promise<string | null> {
  const file = app.publicPath('index.html')
  try {
    const info = await stat(file)
    if (!cached || cached.mtimeMs !== info.mtimeMs) {
      cached = { mtimeMs: info.mtimeMs, html: await readFile(file, 'utf8') }
    }
    return cached.html
  } catch {
    cached = null
    return null
  }
}

/**
 * History-mode fallback: any GET that is not an API route gets the storefront's index.html (or
 * a plain page before the storefront is built), so deep links like /product/3 or /user/orders
 * load the app. Unknown /api paths stay JSON 404 envelopes, and missing static files stay 404s.
 */
async function serveStorefront({ request, response }: HttpContext) {
  const path = request.url()
  if (isApiPath(path)) {
    throw AppError.notFound('No such endpoint.', 'not_found')
  }
  if (ASSET_PATH.test(path)) {
    throw AppError.notFound('Not found.', 'not_found')
  }
  response.header('cache-control', 'no-cache')
  return response.type('html').send((await storefrontIndex()) ?? PLACEHOLDER_PAGE)
}

router.get('/', serveStorefront).as('storefront.home')
router.get('*', serveStorefront).as('storefront.fallback')
