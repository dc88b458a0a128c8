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
})

export default staticServerConfig
