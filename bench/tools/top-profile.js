/*
| Summarises a V8 .cpuprofile (node --cpu-prof): self time per function and per package, the
| heaviest first. Usage: node bench/tools/top-profile.js file.cpuprofile [rows]
*/
import { readFileSync } from 'node:fs'

const [file, rowsArg] = process.argv.slice(2)
const profile = JSON.parse(readFileSync(file, 'utf8'))
const rows = Number(rowsArg ?? 30)
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const self = new Map()
const dt = profile.timeDeltas
for (let index = 0; index < profile.samples.length; index++) {
  const id = profile.samples[index]
  self.set(id, (self.get(id) ?? 0) + (dt[index] ?? 0))
}
const total = [...self.values()].reduce((sum, value) => sum + value, 0)
const byFunction = new Map()
const byPackage = new Map()
for (const [id, time] of self) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}`
  byFunction.set(key, (byFunction.get(key) ?? 0) + time)
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  const pkg = match ? match[1] : url.includes('/build/') ? 'app' : url || functionName
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time)
}
const show = (title, map) => {
  console.log(`\n${title}`)
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
  }
}
show('self time by package', byPackage)
show('self time by function', byFunction)
