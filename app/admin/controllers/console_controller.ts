import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dropslot admin</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5">
<h1>Dropslot admin</h1>
<p>The admin console has not been built yet. Run <code>npm run build:admin</code> (or <code>npm start</code>,
which builds what is missing) and reload this page. The admin API is live under <code>/api/admin</code>.</p>
</body></html>`

let cachedIndex: { mtimeMs: number; html: string } | null = null

/**
 * Serves the react-admin console (`public/admin/index.html`) for `/admin` and every path under
 * it, so deep links and reloads work with history-mode routing. Hashed assets under
 * `/admin/assets/` are served by the static middleware before the router runs.
 */
export default class ConsoleController {
  async show({ response }: HttpContext) {
    const indexFile = app.publicPath('admin/index.html')
    response.header('cache-control', 'no-cache')
    if (!existsSync(indexFile)) return response.type('html').send(NOT_BUILT_PAGE)
    const { stat } = await import('node:fs/promises')
    const { mtimeMs } = await stat(indexFile)
    if (!cachedIndex || cachedIndex.mtimeMs !== mtimeMs) {
      cachedIndex = { mtimeMs, html: await readFile(indexFile, 'utf8') }
    }
    return response.type('html').send(cachedIndex.html)
  }
}
