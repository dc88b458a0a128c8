#!/usr/bin/env node
/*
| Writes the generated references: docs/cli.md from the `dropslot` program and
| docs/configuration.md from start/env.ts and the config files. `--check` writes nothing and
| exits 1 when a file differs from what the code says (the unit suite checks the same).
*/
import { readFileSync, writeFileSync } from 'node:fs'

await import('ts-node-maintained/register/esm')
const { generatedDocs } = await import('./docs/generated_docs.js')

const check = process.argv.includes('--check')
let stale = 0
for (const [path, text] of Object.entries(await generatedDocs())) {
  const url = new URL(`../${path}`, import.meta.url)
  let current = ''
  try {
    current = readFileSync(url, 'utf8')
  } catch {}
  if (current === text) continue
  if (check) {
    console.error(`${path} is out of date: run npm run docs:generate`)
    stale++
  } else {
    writeFileSync(url, text)
    console.log(`wrote ${path}`)
  }
}
process.exit(stale ? 1 : 0)
