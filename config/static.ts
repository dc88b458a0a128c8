import { defineConfig } from '@adonisjs/static'

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
  | the hashed bundles of the current build, and a cached one would point at deleted files for
  | an hour after a deploy. Hashed assets keep the long, immutable cache above.
  */
  headers: (path: string) => (path.endsWith('.html') ? { 'Cache-Control': 'no-cache' } : {}),
})

export default staticServerConfig
