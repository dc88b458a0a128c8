/*
| Summarises a V8 .cpuprofile (node --cpu-prof): self time per function and per package, the
| heaviest first, and the total (self + callees) time of the app's own functions.
| Usage: node bench/tools/top-profile.js file.cpuprofile [rows] [--phase "write path: endpoint"]
|                                        [--compare other.cpuprofile]
| With --phase, only the samples taken during that phase of bench/drop.js --cpu-prof count (the
| windows come from phases.json next to the profile), and when the phase recorded its answers,
| each row also says how many µs of samples it is per answer. With --compare (and --phase), the
| two profiles side by side in µs per answer, by package and by function: e.g. the same phase on
| two commits, each profile in its own folder with its own phases.json.
*/
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { phase: { type: 'string' }, compare: { type: 'string' } },
})
const [file, rowsArg] = positionals
const rows = Number(rowsArg ?? 30)

const frameKey = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/build\//, '')}:${lineNumber + 1}`
const packageOf = ({ url, functionName }) => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  return match ? match[1] : url.includes('/build/') ? 'app' : url || functionName
}

/** Self time (µs) by function, by package and of the app's functions with their callees. */
function summarise(path) {
  const profile = JSON.parse(readFileSync(path, 'utf8'))
  // A phase run in alternating slices has one window per slice.
  let windows = null
  if (values.phase) {
    const phasesFile = join(dirname(path), 'phases.json')
    if (!existsSync(phasesFile)) throw new Error(`${phasesFile} is missing`)
    const phases = JSON.parse(readFileSync(phasesFile, 'utf8'))
    windows = phases.filter(
      (phase) =>
        phase.name === values.phase &&
        profile.startTime <= phase.endUs &&
        profile.endTime >= phase.startUs
    )
    if (!windows.length) throw new Error(`no phase "${values.phase}" inside ${path}`)
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
  const byFunction = new Map()
  const byPackage = new Map()
  const inclusive = new Map()
  for (const [id, spent] of self) {
    const { callFrame } = byId.get(id)
    const key = frameKey(callFrame)
    byFunction.set(key, (byFunction.get(key) ?? 0) + spent)
    const pkg = packageOf(callFrame)
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
  const answers = windows?.every((window) => Number.isFinite(window.responses))
    ? windows.reduce((sum, window) => sum + window.responses, 0)
    : null
  return { windows, total, answers, byFunction, byPackage, inclusive }
}

const main = summarise(file)

if (values.compare) {
  if (!values.phase) throw new Error('--compare needs --phase')
  const other = summarise(values.compare)
  if (!main.answers || !other.answers) throw new Error('a phase without its answers counted')
  const perAnswer = (summary, map, key) => (map.get(key) ?? 0) / summary.answers
  console.log(
    `phase "${values.phase}", µs of samples per answer (idle included): ` +
      `A ${(main.total / main.answers).toFixed(1)} (${file}), ` +
      `B ${(other.total / other.answers).toFixed(1)} (${values.compare})`
  )
  for (const [title, field] of [
    ['by package', 'byPackage'],
    ['by function (self)', 'byFunction'],
  ]) {
    const keys = [...new Set([...main[field].keys(), ...other[field].keys()])]
    const larger = (key) =>
      Math.max(perAnswer(main, main[field], key), perAnswer(other, other[field], key))
    console.log(`\n${title}\n    A µs    B µs  B - A`)
    for (const key of keys.sort((a, b) => larger(b) - larger(a)).slice(0, rows)) {
      const a = perAnswer(main, main[field], key)
      const b = perAnswer(other, other[field], key)
      console.log(
        `${a.toFixed(1).padStart(8)}${b.toFixed(1).padStart(8)}${(b - a).toFixed(1).padStart(7)}  ${key}`
      )
    }
  }
} else {
  const show = (title, map) => {
    console.log(`\n${title}`)
    for (const [key, spent] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
      const share = `${((spent / main.total) * 100).toFixed(1).padStart(5)}%`
      const each = main.answers ? `${(spent / main.answers).toFixed(1).padStart(8)} µs` : ''
      console.log(`${share}${each}  ${key}`)
    }
  }
  if (main.windows)
    console.log(
      `phase "${values.phase}" (${main.windows[0].db}, ${main.windows.length} window(s)): ` +
        `${(main.total / 1000).toFixed(0)} ms sampled` +
        (main.answers ? `, ${main.answers} answers` : '')
    )
  show('self time by package', main.byPackage)
  show('self time by function', main.byFunction)
  show('total time of app functions', main.inclusive)
}
