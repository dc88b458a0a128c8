import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/static'
import { cacheControlFor } from '#core/services/precompressed_files'

/*
| Serves the built storefront and admin console from public/. The storefront's history-mode
| fallback (index.html for unknown non-API paths) is a route in app/core/fallback_routes.ts.
*/
const staticServerConfig = defineConfig({
  enabled: true,
  etag: true,
  lastModified: true,
  dotFiles: 'ignore',
  immutable: true,
  maxAge: '1h',
  /*
  | HTML entry points (public/index.html, public/admin/index.html) must be revalidated: they name
  | the hashed bundles of the current build, and a cached one would point at deleted files after
  | a deploy. Vite's hashed bundles (assets/) never change under their name: a year, immutable.
  | Other files (images, icons) keep the hour above.
  */
  headers: (path: string) => {
    const cacheControl = cacheControlFor(path.slice(app.publicPath().length).replaceAll('\\', '/'))
    return cacheControl ? { 'Cache-Control': cacheControl } : {}
  },
})

export default staticServerConfig
