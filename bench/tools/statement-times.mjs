/*
| Preload for the app server on SQLite
| (bench/drop.js --db sqlite --node-arg=--import=./bench/tools/statement-times.mjs): times every
| better-sqlite3 statement the server runs (wall time around the driver's own call) and prints,
| on exit, the 25 that took the most in all: calls, µs per call, ms in all, and the statement.
*/
import { createRequire } from 'node:module'
import { join } from 'node:path'

// The server's own copy of the driver (build/node_modules when the build has its own).
const require = createRequire(join(process.cwd(), 'package.json'))
const Database = require('better-sqlite3')
const probe = new Database(':memory:')
const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'))
probe.close()

const totals = new Map()
for (const method of ['run', 'get', 'all']) {
  const original = Statement[method]
  Statement[method] = function (...bindings) {
    const started = process.hrtime.bigint()
    try {
      return original.apply(this, bindings)
    } finally {
      const key = `${method} ${this.source.replace(/\s+/g, ' ').slice(0, 80)}`
      const total = totals.get(key) ?? { calls: 0, ns: 0 }
      total.calls++
      total.ns += Number(process.hrtime.bigint() - started)
      totals.set(key, total)
    }
  }
}

process.on('exit', () => {
  const rows = [...totals].sort((a, b) => b[1].ns - a[1].ns).slice(0, 25)
  for (const [key, { calls, ns }] of rows) {
    const perCall = (ns / calls / 1000).toFixed(1)
    const all = (ns / 1e6).toFixed(0)
    process.stderr.write(
      `${String(calls).padStart(8)} ${perCall.padStart(8)} µs ${all.padStart(7)} ms  ${key}\n`
    )
  }
})
