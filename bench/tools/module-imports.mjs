#!/usr/bin/env node
/*
| node bench/tools/module-imports.mjs [--json]
|
| The map of who imports whom between the modules of app/: a matrix of module pairs (how many
| files of the row module import the column module), the pairs that import each other, and the
| files that reach into another module's models/ or validators/ (the walls of the modules).
*/
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const root = new URL('../..', import.meta.url).pathname
const appDir = join(root, 'app')
const modules = readdirSync(appDir).filter((name) => statSync(join(appDir, name)).isDirectory())

function* files(directory) {
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) yield* files(path)
    else if (/\.tsx?$/.test(entry)) yield path
  }
}

const importPattern =
  /(?:import|export)[^'"]*?from\s+['"]#([a-z_]+)\/([^'"]+)['"]|import\(\s*['"]#([a-z_]+)\/([^'"]+)['"]\s*\)/g
const matrix = Object.fromEntries(
  modules.map((from) => [from, Object.fromEntries(modules.map((to) => [to, 0]))])
)
const intoInternals = []

for (const from of modules) {
  for (const file of files(join(appDir, from))) {
    const text = readFileSync(file, 'utf8')
    const seen = new Set()
    for (const match of text.matchAll(importPattern)) {
      const to = match[1] ?? match[3]
      const path = match[2] ?? match[4]
      if (!modules.includes(to) || to === from) continue
      if (!seen.has(to)) matrix[from][to] += 1
      seen.add(to)
      // core is the shared kernel every module builds on: its models are everyone's.
      if (to !== 'core' && /^(models|validators)\//.test(path)) {
        const typeOnly = /^(import|export)\s+type\b/.test(match[0])
        intoInternals.push({ file: relative(root, file), imports: `#${to}/${path}`, typeOnly })
      }
    }
  }
}

const mutual = []
for (const [index, a] of modules.entries()) {
  for (const b of modules.slice(index + 1)) {
    if (matrix[a][b] && matrix[b][a]) mutual.push(`${a} <-> ${b}`)
  }
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ modules, matrix, mutual, intoInternals }))
} else {
  const width = Math.max(...modules.map((name) => name.length)) + 1
  const short = (name) => name.slice(0, 5).padStart(6)
  console.log(''.padEnd(width) + modules.map(short).join(''))
  for (const from of modules) {
    const cells = modules.map((to) =>
      from === to ? '     .' : String(matrix[from][to] || '').padStart(6)
    )
    console.log(from.padEnd(width) + cells.join(''))
  }
  console.log(
    `\nModule pairs importing each other (${mutual.length}): ${mutual.join(', ') || 'none'}`
  )
  const values = intoInternals.filter((item) => !item.typeOnly)
  console.log(
    `Imports of another module's models/ or validators/: ${values.length} of code, ` +
      `${intoInternals.length - values.length} of types only (a shape, allowed by the walls)`
  )
  for (const item of values) console.log(`  ${item.file} -> ${item.imports}`)
  const byModule = {}
  for (const item of values) {
    const from = item.file.split('/')[1]
    byModule[from] = (byModule[from] ?? 0) + 1
  }
  console.log('  by importing module: ' + JSON.stringify(byModule))
}
