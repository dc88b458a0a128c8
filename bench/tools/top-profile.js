/*
| Summarises a V8 .cpuprofile (node --cpu-prof): self time per function and per package, the
| heaviest first, and the total (self + callees) time of the app's own functions.
| Usage: node bench/tools/top-profile.js file.cpuprofile [rows] [--phase "write path: endpoint"]
| With --phase, only the samples taken during that phase of bench/drop.js --cpu-prof count (the
| windows come from phases.json next to the profile).
*/
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { phase: { type: 'string' } },
})
const [file, rowsArg] = positionals
const profile = JSON.parse(readFileSync(file, 'utf8'))
const rows = Number(rowsArg ?? 30)

// A phase run in alternating slices has one window per slice.
let windows = null
if (values.phase) {
  const phasesFile = join(dirname(file), 'phases.json')
  if (!existsSync(phasesFile)) throw new Error(`${phasesFile} is missing`)
  const phases = JSON.parse(readFileSync(phasesFile, 'utf8'))
  windows = phases.filter(
    (phase) =>
      phase.name === values.phase &&
      profile.startTime <= phase.endUs &&
      profile.endTime >= phase.startUs
  )
  if (!windows.length) throw new Error(`no phase "${values.phase}" inside this profile`)
}
const inWindow = (time) =>
  !windows || windows.some((window) => time >= window.startUs && time <= window.endUs)

const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parentOf = new Map()
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id)
const self = new Map()
const dt = profile.timeDeltas
let time = profile.startTime
for (let index = 0; index < profile.samples.length; index++) {
  time += dt[index] ?? 0
  if (!inWindow(time)) continue
  const id = profile.samples[index]
  self.set(id, (self.get(id) ?? 0) + (dt[index] ?? 0))
}
const total = [...self.values()].reduce((sum, value) => sum + value, 0)
const frameKey = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/build\//, '')}:${lineNumber + 1}`
const byFunction = new Map()
const byPackage = new Map()
const inclusive = new Map()
for (const [id, spent] of self) {
  const { callFrame } = byId.get(id)
  const key = frameKey(callFrame)
  byFunction.set(key, (byFunction.get(key) ?? 0) + spent)
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(callFrame.url)
  const pkg = match
    ? match[1]
    : callFrame.url.includes('/build/')
      ? 'app'
      : callFrame.url || callFrame.functionName
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + spent)
  // Total time of the app's functions: each app frame on the stack once.
  const seen = new Set()
  for (let node = id; node !== undefined; node = parentOf.get(node)) {
    const frame = byId.get(node).callFrame
    if (!frame.url.includes('/build/') || frame.url.includes('node_modules')) continue
    const appKey = frameKey(frame)
    if (seen.has(appKey)) continue
    seen.add(appKey)
    inclusive.set(appKey, (inclusive.get(appKey) ?? 0) + spent)
  }
}
const show = (title, map) => {
  console.log(`\n${title}`)
  for (const [key, spent] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${((spent / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
  }
}
if (windows)
  console.log(
    `phase "${values.phase}" (${windows[0].db}, ${windows.length} window(s)): ${(total / 1000).toFixed(0)} ms sampled`
  )
show('self time by package', byPackage)
show('self time by function', byFunction)
show('total time of app functions', inclusive)
