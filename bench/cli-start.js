/*
| How fast the operator CLI answers: `dropslot --help`, `release:status`, `orders:show`,
| `mail:status` and `alerts:status`, run from the
| production build (compiled JavaScript, `node build/cli/dropslot.js`) and from the source tree
| (TypeScript through the loader, `node cli/dropslot.js`), side by side in one run, against a
| fresh migrated SQLite database.
|
|   node bench/cli-start.js                 7 runs each; installs the build's production
|                                           dependencies first (npm ci --omit=dev in build/)
|   node bench/cli-start.js --runs 15       more runs
|   node bench/cli-start.js --smoke         1 run each, no timing verdict: fails only when a
|                                           command fails (CI)
|
| Targets (this machine, production build): --help under 0.3 s, each other command under 0.5 s.
| Figures are medians of wall time per process, start to exit. orders:show asks for an order the
| fresh database does not hold: it boots, reads and answers "not found" (exit 1), as it would a
| typo at 6 a.m.; finding one costs the same read.
*/
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildWhenStale } from '../scripts/build_when_stale.js'

const root = fileURLToPath(new URL('../', import.meta.url))
const buildDir = join(root, 'build')
const args = process.argv.slice(2)
const smoke = args.includes('--smoke')
const runsArg = args.indexOf('--runs')
const runs = smoke ? 1 : runsArg >= 0 ? Number(args[runsArg + 1]) : 7
const TARGETS = { help: 0.3, status: 0.5, order: 0.5, mail: 0.5, alerts: 0.5 }

const log = (line) => process.stderr.write(`${line}\n`)

/** `npm ci --omit=dev` in build/, so the build runs with production dependencies only. */
function installProductionDependencies() {
  const marker = join(buildDir, 'node_modules', '.package-lock.json')
  const lock = join(buildDir, 'package-lock.json')
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return
  log('installing the build’s production dependencies (npm ci --omit=dev)...')
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: buildDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (existsSync(join(buildDir, 'node_modules', 'ts-node-maintained'))) {
    throw new Error('build/node_modules holds a dev dependency: the install is not production-only')
  }
}

function environment(sqlitePath) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    TZ: 'UTC',
    PORT: '3399',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    APP_KEY: randomBytes(32).toString('base64url'),
    PROFILE_TRANSPORT_KEY: randomBytes(32).toString('hex'),
    VAULT_KEYS: `bench:${randomBytes(32).toString('hex')}`,
    INSTALLATION_ID: `bench_${randomBytes(6).toString('hex')}`,
    SANDBOX_WEBHOOK_SECRET: randomBytes(24).toString('base64url'),
    PAYMENT_GATEWAY: 'sandbox',
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    CHECKOUT_TASK_SECRET: randomBytes(32).toString('base64url'),
    CHECKOUT_RESULTS_SECRET: randomBytes(32).toString('base64url'),
    DRAW_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
    // The timed commands send no mail: a local port nothing listens on stands in for SMTP.
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: '9',
    DB_CONNECTION: 'sqlite',
    SQLITE_PATH: sqlitePath,
    HOLD_WORKER_ENABLED: 'false',
  }
}

/** Runs one CLI process to its exit; its wall time in seconds. */
function timed(cwd, command, env, expectedStatus = 0) {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, ['cli/dropslot.js', ...command], {
    cwd,
    env,
    encoding: 'utf8',
  })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (result.status !== expectedStatus) {
    throw new Error(
      `dropslot ${command.join(' ')} in ${cwd} exited ${result.status}:\n${result.stderr}`
    )
  }
  return seconds
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

buildWhenStale(root, log)
if (!smoke) installProductionDependencies()

const workDir = mkdtempSync(join(tmpdir(), 'dropslot-cli-bench-'))
const env = environment(join(workDir, 'bench.sqlite3'))
try {
  execFileSync(process.execPath, ['ace', 'migration:run', '--force'], {
    cwd: buildDir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  })

  const cases = [
    { name: 'help', command: ['--help'] },
    { name: 'status', command: ['release:status'] },
    { name: 'order', command: ['orders:show', 'DS-0000-0000'], expectedStatus: 1 },
    { name: 'mail', command: ['mail:status'] },
    { name: 'alerts', command: ['alerts:status'] },
  ]
  const figures = {}
  // Interleaved, so both sides see the same background load.
  for (const item of cases) {
    figures[item.name] = { build: [], source: [] }
    for (let index = 0; index < runs; index++) {
      figures[item.name].build.push(timed(buildDir, item.command, env, item.expectedStatus))
      figures[item.name].source.push(timed(root, item.command, env, item.expectedStatus))
    }
  }

  const report = {
    runs,
    loadavg: loadavg().map((value) => Number(value.toFixed(2))),
    productionDependenciesOnly: !smoke,
    results: cases.map((item) => {
      const build = median(figures[item.name].build)
      const source = median(figures[item.name].source)
      return {
        command: `dropslot ${item.command.join(' ')}`,
        buildSeconds: Number(build.toFixed(3)),
        sourceSeconds: Number(source.toFixed(3)),
        sourceOverBuild: Number((source / build).toFixed(2)),
        targetSeconds: TARGETS[item.name],
        withinTarget: build < TARGETS[item.name],
      }
    }),
  }
  console.log(JSON.stringify(report, null, 2))
  for (const result of report.results) {
    log(
      `${result.command}: build ${result.buildSeconds} s (target < ${result.targetSeconds} s` +
        `${smoke ? '' : result.withinTarget ? ', met' : ', missed'}), source ${result.sourceSeconds} s` +
        ` (x${result.sourceOverBuild})`
    )
  }
} finally {
  rmSync(workDir, { recursive: true, force: true })
}
