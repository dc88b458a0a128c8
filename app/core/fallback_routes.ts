import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'

const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dropslot</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5">
<h1>Dropslot</h1>
<p>Slots for release day: we check out limited sneakers and streetwear for you. The API is live at
<a href="/api/products">/api/products</a>; health at <a href="/health">/health</a>.</p>
</body></html>`

let storefrontIndex: string | null = null

/**
 * History-mode fallback: any GET that is not an API route gets the storefront's index.html (or
 * a plain page before the storefront is built). Unknown /api paths stay JSON 404 envelopes.
 */
async function serveStorefront({ request, response }: HttpContext) {
  const path = request.url()
  if (path === '/api' || path.startsWith('/api/')) {
    throw AppError.notFound('No such endpoint.', 'not_found')
  }
  const indexFile = app.publicPath('index.html')
  if (storefrontIndex === null && existsSync(indexFile)) {
    storefrontIndex = await readFile(indexFile, 'utf8')
  }
  response.header('cache-control', 'no-cache')
  return response.type('html').send(storefrontIndex ?? PLACEHOLDER_PAGE)
}

router.get('/', serveStorefront).as('storefront.home')
router.get('*', serveStorefront).as('storefront.fallback')
