import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

/*
| The react-admin console: its own entry, its own bundle, served by the Adonis server at
| /admin (app/admin/routes.ts). It builds into public/admin only; the storefront builds into
| public/ first and never imports anything from here.
*/
const root = fileURLToPath(new URL('.', import.meta.url))
const outDir = fileURLToPath(new URL('../public/admin', import.meta.url))

export default defineConfig({
  root,
  base: '/admin/',
  plugins: [react()],
  // The product's words and card rules, shared with the server (shared/ at the project root).
  resolve: { alias: { '@shared': fileURLToPath(new URL('../shared', import.meta.url)) } },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2500,
  },
  server: {
    port: 5174,
    proxy: {
      '/api': 'http://localhost:3333',
      '/login': 'http://localhost:3333',
    },
  },
})
