#!/usr/bin/env node
/*
| `dropslot`: the operator CLI. In the production build (`node ace build`, then
| `npm ci --omit=dev` in build/) main.js is compiled JavaScript and runs as it is; in the
| source tree only main.ts exists, so the TypeScript loader ace uses is registered first.
*/
import { existsSync } from 'node:fs'

if (!existsSync(new URL('./main.js', import.meta.url))) {
  await import('ts-node-maintained/register/esm')
}

await import('./main.js')
