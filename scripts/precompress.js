#!/usr/bin/env node
/*
| node scripts/precompress.js [dir]   (default: public/)
|
| Writes a brotli (.br) and a gzip (.gz) copy next to every text asset of the built storefront and
| console, so the server sends them compressed without compressing per request. Run by the build
| scripts after Vite; a copy that would not be smaller is not written.
*/
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/
const MIN_BYTES = 512
const root = process.argv[2] ?? new URL('../public', import.meta.url).pathname

function* files(directory) {
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) yield* files(path)
    else yield path
  }
}

let plain = 0
let brotli = 0
let count = 0
for (const file of files(root)) {
  if (!COMPRESSIBLE.test(file)) continue
  const body = readFileSync(file)
  for (const suffix of ['.br', '.gz']) {
    try {
      unlinkSync(file + suffix)
    } catch {}
  }
  if (body.length < MIN_BYTES) continue
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
  const gz = gzipSync(body, { level: 9 })
  if (br.length < body.length) writeFileSync(file + '.br', br)
  if (gz.length < body.length) writeFileSync(file + '.gz', gz)
  plain += body.length
  brotli += Math.min(br.length, body.length)
  count += 1
}
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`
console.log(`precompressed ${count} files in ${root}: ${kb(plain)} -> ${kb(brotli)} with brotli`)
