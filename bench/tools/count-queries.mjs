/*
| Preload for the app server (bench/drop.js --node-arg=--import=./bench/tools/count-queries.mjs):
| counts the SQL statements mysql2 sends, by their first words, and prints them on exit.
*/
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const Connection = require(join(dirname(require.resolve('mysql2')), 'lib/base/connection.js'))
const counts = new Map()
const original = Connection.prototype.query
Connection.prototype.query = function (sql, ...rest) {
  const text = typeof sql === 'string' ? sql : (sql?.sql ?? String(sql))
  const key = text.replace(/\s+/g, ' ').slice(0, 70)
  counts.set(key, (counts.get(key) ?? 0) + 1)
  return original.call(this, sql, ...rest)
}
process.on('exit', () => {
  const rows = [...counts].sort((a, b) => b[1] - a[1])
  for (const [key, count] of rows) process.stderr.write(`${String(count).padStart(7)}  ${key}\n`)
})
