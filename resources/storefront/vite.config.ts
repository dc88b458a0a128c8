import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

/** The Adonis server the dev server forwards API calls to (`npm run dev` serves it on 3333). */
const apiTarget = process.env.DROPSLOT_API ?? 'http://localhost:3333'

/** POST /login and /register are API calls; GET /login and /register are pages of the app. */
const apiUnlessPage = {
  target: apiTarget,
  bypass: (request: { method?: string; headers: { accept?: string } }) =>
    request.method === 'GET' && request.headers.accept?.includes('text/html')
      ? '/index.html'
      : null,
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  // The product's words and card rules, shared with the server (shared/ at the project root).
  resolve: { alias: { '@shared': fileURLToPath(new URL('../../shared', import.meta.url)) } },
  build: {
    // The Adonis static middleware serves public/; the admin console builds into public/admin later.
    outDir: fileURLToPath(new URL('../../public', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    reportCompressedSize: true,
  },
  server: {
    port: 3420,
    strictPort: true,
    proxy: {
      '/api': apiTarget,
      '/health': apiTarget,
      '/login': apiUnlessPage,
      '/register': apiUnlessPage,
    },
  },
  preview: { port: 3420 },
})
