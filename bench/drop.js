#!/usr/bin/env node
/*
| npm run bench:drop [-- --db mysql|sqlite|both --users 5000 --slots 500 --connections 100
|                        --duration 10 --pool 10 --slices 5 --warm-up 3000 --smoke]
|
| Release-day rush against the production build: seeds U customers (token, card, profile each)
| and the products, starts build/bin/server.js, the raw baseline (bench/baseline.js) and the bare
| floor (bench/bare_health.js: GET /health and nothing else, no database), fires
| POST /api/checkout/withprofile with autocannon and checks the database afterwards. Exits
| non-zero on any correctness violation (oversold, duplicate, 5xx, missing order or hold).
| Builds the app first (node ace build) when build/ is missing or stale. See docs/performance.md.
*/
import { fork, spawn, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { connect, resetDatabase, seed, verifyProduct } from './lib/store.js'
import { buildWhenStale } from '../scripts/build_when_stale.js'
import { assertPortFree, stop, waitForHealth } from './lib/processes.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const buildDir = join(root, 'build')

const { values: flags } = parseArgs({
  options: {
    'db': { type: 'string', default: 'mysql' },
    'users': { type: 'string' },
    'slots': { type: 'string' },
    'connections': { type: 'string' },
    'duration': { type: 'string' },
    'pool': { type: 'string' },
    'slices': { type: 'string' },
    'warm-up': { type: 'string' },
    'port': { type: 'string', default: '3461' },
    'smoke': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    'baseline-procedure': { type: 'boolean', default: false },
    'node-arg': { type: 'string', multiple: true, default: [] },
    'app-env': { type: 'string', multiple: true, default: [] },
  },
})
const smoke = flags.smoke
const settings = {
  users: Number(flags.users ?? (smoke ? 200 : 5000)),
  slots: Number(flags.slots ?? (smoke ? 40 : 500)),
  connections: Number(flags.connections ?? (smoke ? 20 : 100)),
  duration: Number(flags.duration ?? (smoke ? 1 : 10)),
  pool: flags.pool ? Number(flags.pool) : undefined,
  appPort: Number(flags.port),
}
settings.basePort = settings.appPort + 1
settings.barePort = settings.appPort + 2
// Checkouts on each server before anything is compared: enough for V8 to have optimised the
// app's hundreds of once-per-request functions (its CPU per checkout settles after 2,000-3,000;
// the warm-up's own figures are reported as its phase, so the cold start stays visible).
settings.warmUp = Math.min(settings.users, Number(flags['warm-up'] ?? (smoke ? 50 : 3000)))
// No empty slice: every slice of the write path has customers to send.
settings.slices = Math.max(1, Math.min(settings.users, Number(flags.slices ?? (smoke ? 1 : 5))))
const databases = flags.db === 'both' ? ['mysql', 'sqlite'] : [flags.db]
for (const db of databases) {
  if (!['mysql', 'sqlite'].includes(db)) throw new Error(`--db must be mysql, sqlite or both`)
}

const log = (...args) => console.error(...args)
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

function appEnv(db, secrets) {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(settings.appPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    APP_KEY: secrets.appKey,
    PROFILE_TRANSPORT_KEY: secrets.transportKey,
    VAULT_KEYS: secrets.vaultKeys,
    INSTALLATION_ID: secrets.installationId,
    SANDBOX_WEBHOOK_SECRET: secrets.sandboxWebhookSecret,
    // The sandbox on purpose: production refuses it otherwise.
    PAYMENT_GATEWAY: 'sandbox',
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    CHECKOUT_TASK_SECRET: secrets.checkoutTaskSecret,
    CHECKOUT_RESULTS_SECRET: secrets.checkoutResultsSecret,
    DRAW_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
    DB_CONNECTION: db.kind,
    ...(db.kind === 'mysql' ? { MYSQL_DB_NAME: db.database } : { SQLITE_PATH: db.path }),
    ...(settings.pool ? { DB_POOL_MAX: String(settings.pool) } : {}),
    // All the load comes from one address and each customer presses more than 30 times a
    // minute in the rejection phase: the limits are raised for the benchmark only.
    RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000000',
    RATE_LIMIT_CHECKOUT_IP_PER_MINUTE: '100000000',
    // Holds stay queued during the measured window; the worker would compete for the CPU.
    HOLD_WORKER_ENABLED: 'false',
    // So do the receipts: the email queue is left to another process, and the mail server that
    // production needs named is a local port nothing listens on (never reached).
    EMAIL_WORKER_ENABLED: 'false',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: '9',
    // --app-env NAME=VALUE: a setting of the app's to compare, e.g. SQLITE_CHECKPOINT_EVERY_MS=0.
    ...Object.fromEntries(flags['app-env'].map((pair) => appSetting(pair))),
  }
}

function appSetting(pair) {
  const match = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(pair)
  if (!match) throw new Error(`--app-env takes NAME=VALUE, not ${pair}`)
  return [match[1], match[2]]
}

/**
 * The machine's CPU time so far (all CPUs, ms): `busy` (everything but idle and I/O wait) and
 * `steal` (given by the hypervisor to other machines); null off Linux.
 */
function machineMs() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
    const ticks = fields.slice(1, 9).map(Number)
    const [user, nice, system, , , irq, softirq, steal] = ticks
    const ms = (value) => (value * 1000) / 100
    return { busy: ms(user + nice + system + irq + softirq), steal: ms(steal) }
  } catch {
    return null
  }
}

/** The local MariaDB server's pid, to count its CPU per request too; null if not found. */
function databasePid() {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      const pid = execFileSync('pidof', ['-s', name], { encoding: 'utf8' }).trim()
      if (pid) return Number(pid)
    } catch {}
  }
  return null
}

/** CPU time (user + system, ms) a process has used so far; null off Linux. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return null
  }
}

/**
 * One autocannon run. `amount` requests (each customer once, in order) or `duration` seconds
 * (customers cycling). Returns throughput, latency, status counts and the time of the
 * `soldOutAfter`-th 201 (time to sell out).
 */
async function fire({
  port,
  path,
  method = 'POST',
  customers,
  productId,
  amount,
  duration,
  soldOutAfter,
}) {
  let next = 0
  const statuses = {}
  let created = 0
  let soldOutMs = null
  const started = performance.now()
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    // autocannon refuses more connections than requests (a small slice).
    connections: amount ? Math.min(settings.connections, amount) : settings.connections,
    ...(amount ? { amount } : { duration }),
    timeout: 30,
    requests: [
      {
        method,
        path,
        setupRequest(request) {
          if (!customers) return request
          const customer = customers[next++ % customers.length]
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              'authorization': `Bearer ${customer.token}`,
            },
            body: JSON.stringify({
              productId,
              style: 'OS',
              size: 'OS',
              profileId: customer.profileId,
            }),
          }
        },
      },
    ],
  })
  // Throughput runs to the last answer: autocannon reports an `amount` run as done only at its
  // next one-second tick, which made 5,000 checkouts in 4.1 s and in 4.9 s both "5.0 s".
  let lastAnswer = started
  const latencies = []
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    lastAnswer = performance.now()
    latencies.push(responseTime)
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
    if (statusCode === 201 && ++created === soldOutAfter) soldOutMs = performance.now() - started
  })
  const result = await instance
  const seconds = (lastAnswer - started) / 1000
  const responses = Object.values(statuses).reduce((sum, count) => sum + count, 0)
  const errors5xx = Object.entries(statuses)
    .filter(([code]) => Number(code) >= 500)
    .reduce((sum, [, count]) => sum + count, 0)
  return {
    responses,
    seconds,
    latencies,
    statuses,
    errors5xx,
    socketErrors: result.errors + result.timeouts,
    soldOutMs,
    load: load(),
  }
}

// Monotonic microseconds, the clock of V8's .cpuprofile timestamps: with --cpu-prof the phases'
// windows are written to tmp/bench/prof/phases.json so top-profile.js --phase can cut them out.
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)
const phaseWindows = []

async function runDatabase(kind) {
  const secrets = {
    appKey: randomBytes(32).toString('base64url'),
    transportKey: randomBytes(32).toString('hex'),
    vaultKeys: `bench:${randomBytes(32).toString('hex')}`,
    installationId: randomBytes(16).toString('hex'),
    sandboxWebhookSecret: `whsec_${randomBytes(24).toString('hex')}`,
    checkoutTaskSecret: randomBytes(32).toString('base64url'),
    checkoutResultsSecret: randomBytes(32).toString('base64url'),
  }
  const db =
    kind === 'mysql'
      ? { kind, db: kind, database: 'dropslot_bench' }
      : { kind, db: kind, path: join(root, 'tmp', 'bench', 'drop.sqlite3') }
  await resetDatabase(db)
  const env = appEnv(db, secrets)
  log(`[${kind}] migrating`)
  execFileSync(process.execPath, ['ace', 'migration:run', '--force'], {
    cwd: buildDir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const client = await connect(db)
  const { users, slots } = settings
  log(`[${kind}] seeding ${users} customers, ${slots} slots`)
  const seeded = await seed(client, {
    users,
    vaultKeys: secrets.vaultKeys,
    products: {
      'app-warm': users,
      'base-warm': users,
      'app-write': users,
      'base-write': users,
      'app-drop': slots,
      'base-drop': slots,
    },
  })
  const { customers, productIds: ids } = seeded
  // SQLite: the baseline works on its own copy of the seeded file, so neither server copies the
  // other's writes out of the shared log (a checkpoint is SQLite's, whoever's pages it holds).
  const baselineDb =
    kind === 'sqlite' ? { ...db, path: db.path.replace(/\.sqlite3$/, '-baseline.sqlite3') } : db
  if (kind === 'sqlite') {
    await client.query('PRAGMA wal_checkpoint(TRUNCATE)')
    await resetDatabase(baselineDb)
    copyFileSync(db.path, baselineDb.path)
  }
  const baselineClient = kind === 'sqlite' ? await connect(baselineDb) : client
  const baselineProducts = new Set(
    Object.entries(ids)
      .filter(([key]) => key.startsWith('base-'))
      .map(([, id]) => id)
  )

  // --cpu-prof: V8 profiles of the app server in tmp/bench/prof (summarise them with
  // node bench/tools/top-profile.js <file>).
  const profileArgs = flags['cpu-prof']
    ? ['--cpu-prof', `--cpu-prof-dir=${join(root, 'tmp', 'bench', 'prof')}`]
    : []
  for (const port of [settings.appPort, settings.basePort, settings.barePort]) {
    await assertPortFree(port)
  }
  const nodeArgs = flags['node-arg'].map((arg) => arg.replace('./bench/', `${root}/bench/`))
  const app = spawn(process.execPath, [...profileArgs, ...nodeArgs, 'bin/server.js'], {
    cwd: buildDir,
    env,
    stdio: 'inherit',
  })
  const baseline = fork(join(root, 'bench', 'baseline.js'), [], {
    env: {
      PATH: process.env.PATH,
      BASELINE_DB: kind,
      BASELINE_DATABASE: db.database ?? '',
      BASELINE_SQLITE_PATH: baselineDb.path ?? '',
      BASELINE_PORT: String(settings.basePort),
      VAULT_KEYS: secrets.vaultKeys,
      DB_POOL_MAX: String(settings.pool ?? 10),
      BASELINE_PROCEDURE: flags['baseline-procedure'] ? '1' : '',
    },
    stdio: 'inherit',
  })
  const bare = fork(join(root, 'bench', 'bare_health.js'), [], {
    env: { PATH: process.env.PATH, BARE_PORT: String(settings.barePort) },
    stdio: 'inherit',
  })
  const rows = []
  const failures = []
  const check = (label, actual, expected) => {
    if (actual !== expected) failures.push(`${kind} ${label}: ${actual}, expected ${expected}`)
    return actual === expected
  }
  try {
    await waitForHealth(settings.appPort, app)
    await waitForHealth(settings.basePort, baseline)
    await waitForHealth(settings.barePort, bare)
    const checkout = '/api/checkout/withprofile'
    // One load run of one phase, with the CPU it cost: the server's (app or baseline), the
    // database server's (MariaDB) and the machine's (busy and stolen).
    const measured = async (name, run) => {
      const pid = name.endsWith('baseline')
        ? baseline.pid
        : name.endsWith('bare floor')
          ? bare.pid
          : app.pid
      const dbPid = kind === 'mysql' ? databasePid() : null
      const cpuBefore = cpuMs(pid)
      const dbBefore = dbPid === null ? null : cpuMs(dbPid)
      const machineBefore = machineMs()
      const startUs = monotonicUs()
      const result = await run()
      phaseWindows.push({
        db: kind,
        name,
        startUs,
        endUs: monotonicUs(),
        responses: result.responses,
      })
      const cpuAfter = cpuMs(pid)
      const dbAfter = dbPid === null ? null : cpuMs(dbPid)
      const machineAfter = machineMs()
      const delta = (before, after) => (before === null || after === null ? null : after - before)
      return {
        ...result,
        cpuMs: delta(cpuBefore, cpuAfter),
        dbMs: delta(dbBefore, dbAfter),
        busyMs: delta(machineBefore?.busy ?? null, machineAfter?.busy ?? null),
        stealMs: delta(machineBefore?.steal ?? null, machineAfter?.steal ?? null),
      }
    }

    // The figures of a phase run in slices, and its checks.
    const finish = (name, slices, verify, state) => {
      const sum = (field) =>
        slices.some((slice) => slice[field] === null)
          ? null
          : slices.reduce((total, slice) => total + slice[field], 0)
      const statuses = {}
      for (const slice of slices) {
        for (const [code, count] of Object.entries(slice.statuses)) {
          statuses[code] = (statuses[code] ?? 0) + count
        }
      }
      const latencies = slices.flatMap((slice) => slice.latencies).sort((a, b) => a - b)
      const percentile = (share) =>
        latencies.length
          ? Math.round(
              latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))]
            )
          : 0
      const responses = sum('responses')
      const seconds = sum('seconds')
      const perRequest = (field) => (sum(field) === null ? null : sum(field) / responses)
      // As shares of the phase's wall time on all cores: stolen CPU (a virtual machine's
      // neighbours), which says how far to trust the phase's req/s, and busy CPU (load
      // generator, server, database), which says whether the phase was bound by the machine.
      const share = (field) =>
        sum(field) === null ? null : sum(field) / (seconds * 1000 * cpus().length)
      const result = {
        responses,
        seconds,
        rps: responses / seconds,
        p50: percentile(0.5),
        p99: percentile(0.99),
        statuses,
        errors5xx: sum('errors5xx'),
        socketErrors: sum('socketErrors'),
        soldOutMs: slices[0].soldOutMs,
        load: slices.at(-1).load,
        // CPU time of the server per answered request: unlike req/s, barely moved by the other
        // processes of a shared machine. And the same for the database server (MariaDB).
        cpuPerRequest: perRequest('cpuMs'),
        dbCpuPerRequest: perRequest('dbMs'),
        stealShare: share('stealMs'),
        busyShare: share('busyMs'),
      }
      const checks = []
      if (state) {
        checks.push(check(`${name} orders`, state.orders, verify.orders))
        checks.push(check(`${name} stock_taken`, state.stockTaken, state.orders))
        checks.push(check(`${name} oversold`, Math.max(0, state.stockTaken - state.totalStock), 0))
        checks.push(check(`${name} duplicates`, state.duplicates, 0))
        checks.push(check(`${name} holds queued`, state.holdsQueued, state.orders))
        checks.push(check(`${name} 201s`, result.statuses[201] ?? 0, verify.created))
      }
      checks.push(check(`${name} 5xx`, result.errors5xx, 0))
      checks.push(check(`${name} socket errors`, result.socketErrors, 0))
      if (verify?.only) {
        const unexpected = Object.keys(result.statuses).filter(
          (code) => !verify.only.includes(Number(code))
        )
        checks.push(check(`${name} unexpected statuses`, unexpected.join(','), ''))
      }
      const row = { name, ...result, state, ok: checks.every(Boolean) }
      rows.push(row)
      return row
    }
    const verified = (verify) =>
      verify?.productId
        ? verifyProduct(
            baselineProducts.has(verify.productId) ? baselineClient : client,
            verify.productId
          )
        : null

    const phase = async (name, run, verify) => {
      log(`[${kind}] ${name} (load ${load()})`)
      const slice = await measured(name, run)
      return finish(name, [slice], verify, await verified(verify))
    }

    // Two phases compared with each other run in alternating slices (A, B, A, B, ...), so that a
    // change in the machine's speed during the run (another virtual machine's load, a CPU's
    // frequency) falls on both alike instead of on whichever phase ran at that moment.
    const alternating = async (...phases) => {
      const names = phases.map((item) => item.name).join(' / ')
      log(`[${kind}] ${names}, ${settings.slices} slices each (load ${load()})`)
      const slices = phases.map(() => [])
      for (let index = 0; index < settings.slices; index++) {
        for (const [side, { name, run }] of phases.entries()) {
          slices[side].push(await measured(name, () => run(index)))
        }
      }
      const results = []
      for (const [side, item] of phases.entries()) {
        results.push(finish(item.name, slices[side], item.verify, await verified(item.verify)))
      }
      return results
    }
    const sliceOf = (list, index) =>
      list.slice(
        Math.floor((index * list.length) / settings.slices),
        Math.floor(((index + 1) * list.length) / settings.slices)
      )
    const sliceSeconds = Math.max(1, settings.duration / settings.slices)

    // The warm-up: the same checkouts on a product of its own, measured and checked like a
    // phase, so a cold server's CPU per checkout is on record next to the warm one's.
    const warm = customers.slice(0, settings.warmUp)
    const warmUp = (side, port, productId) =>
      phase(
        `warm-up: ${side}`,
        () => fire({ port, path: checkout, customers: warm, productId, amount: warm.length }),
        { productId, orders: warm.length, created: warm.length, only: [201] }
      )
    const warmApp = await warmUp('endpoint', settings.appPort, ids['app-warm'])
    const warmBase = await warmUp('baseline', settings.basePort, ids['base-warm'])

    const writePath = (side, port, productId) => ({
      name: `write path: ${side}`,
      run: (index) =>
        fire({
          port,
          path: checkout,
          customers: sliceOf(customers, index),
          productId,
          amount: sliceOf(customers, index).length,
        }),
      verify: { productId, orders: users, created: users, only: [201] },
    })
    const [writeApp, writeBase] = await alternating(
      writePath('endpoint', settings.appPort, ids['app-write']),
      writePath('baseline', settings.basePort, ids['base-write'])
    )
    const sold = Math.min(slots, users)
    const dropApp = await phase(
      'drop: endpoint',
      () =>
        fire({
          port: settings.appPort,
          path: checkout,
          customers,
          productId: ids['app-drop'],
          amount: users,
          soldOutAfter: sold,
        }),
      { productId: ids['app-drop'], orders: sold, created: sold, only: [201, 409] }
    )
    await phase(
      'drop: baseline',
      () =>
        fire({
          port: settings.basePort,
          path: checkout,
          customers,
          productId: ids['base-drop'],
          amount: users,
          soldOutAfter: sold,
        }),
      { productId: ids['base-drop'], orders: sold, created: sold, only: [201, 409] }
    )
    // Presses on the sold-out product against each server's own /health, and the app's against
    // the bare floor: Node's HTTP stack answering and nothing else, in the same slices.
    const soldOut = (side, port, productId) => ({
      name: `sold out: ${side}`,
      run: () => fire({ port, path: checkout, customers, productId, duration: sliceSeconds }),
      verify: { productId, orders: sold, created: 0, only: [409] },
    })
    const health = (side, port) => ({
      name: `GET /health: ${side}`,
      run: () => fire({ port, path: '/health', method: 'GET', duration: sliceSeconds }),
      verify: { only: [200] },
    })
    const [rejectApp, healthApp, healthBare] = await alternating(
      soldOut('endpoint', settings.appPort, ids['app-drop']),
      health('endpoint', settings.appPort),
      health('bare floor', settings.barePort)
    )
    const [rejectBase, healthBase] = await alternating(
      soldOut('baseline', settings.basePort, ids['base-drop']),
      health('baseline', settings.basePort)
    )

    const states = rows.map((row) => row.state).filter(Boolean)
    const summary = {
      endpointRps: round(writeApp.rps),
      baselineRps: round(writeBase.rps),
      ratio: round(writeApp.rps / writeBase.rps, 3),
      rejectRps: round(rejectApp.rps),
      baselineRejectRps: round(rejectBase.rps),
      healthRps: round(healthApp.rps),
      endpointCpuMs: round(writeApp.cpuPerRequest, 2),
      baselineCpuMs: round(writeBase.cpuPerRequest, 2),
      // The warm-up's checkouts, the first ones each server answers (V8 still optimising).
      warmUpCheckouts: warm.length,
      warmUpCpuMs: round(warmApp.cpuPerRequest, 2),
      baselineWarmUpCpuMs: round(warmBase.cpuPerRequest, 2),
      rejectCpuMs: round(rejectApp.cpuPerRequest, 3),
      healthCpuMs: round(healthApp.cpuPerRequest, 2),
      rejectToHealth: round(rejectApp.rps / healthApp.rps, 3),
      // The raw baseline's /health (one SELECT 1, so it moves with the database's driver).
      baselineHealthRps: round(healthBase.rps),
      baselineHealthCpuMs: round(healthBase.cpuPerRequest, 3),
      // The floor the sold-out answer is held to: a process answering GET /health and doing
      // nothing else (bench/bare_health.js), in the same slices as the sold-out presses; the
      // ratio of CPU per answer is the target's figure (at most 1.5).
      rawHealthRps: round(healthBare.rps),
      rawHealthCpuMs: round(healthBare.cpuPerRequest, 3),
      rejectCpuToRawHealth: round(rejectApp.cpuPerRequest / healthBare.cpuPerRequest, 3),
      soldOutMs: dropApp.soldOutMs === null ? null : Math.round(dropApp.soldOutMs),
      oversold: states.reduce(
        (sum, state) => sum + Math.max(0, state.stockTaken - state.totalStock),
        0
      ),
      duplicates: states.reduce((sum, state) => sum + state.duplicates, 0),
      errors5xx: rows.reduce((sum, row) => sum + row.errors5xx, 0),
      correct: failures.length === 0,
      maxSteal: round(Math.max(...rows.map((row) => row.stealShare ?? 0)), 2),
      load: load(),
    }
    return { rows, summary, failures }
  } finally {
    await Promise.all([stop(app), stop(baseline), stop(bare)])
    await client.close()
    if (baselineClient !== client) await baselineClient.close()
  }
}

function round(value, digits = 1) {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

function printTable(kind, rows) {
  const header = [
    'phase',
    'requests',
    'req/s',
    'cpu ms/req',
    'db ms/req',
    'p50 ms',
    'p99 ms',
    'statuses',
    '5xx',
    'sold out',
    'checks',
    'busy',
    'steal',
    'load 1/5/15',
  ]
  const lines = rows.map((row) => [
    row.name,
    String(row.responses),
    row.rps.toFixed(0),
    row.cpuPerRequest === null ? '' : row.cpuPerRequest.toFixed(3),
    row.dbCpuPerRequest === null ? '' : row.dbCpuPerRequest.toFixed(2),
    String(row.p50),
    String(row.p99),
    Object.entries(row.statuses)
      .map(([code, count]) => `${code}x${count}`)
      .join(' '),
    String(row.errors5xx),
    row.soldOutMs === null ? '' : `${(row.soldOutMs / 1000).toFixed(2)} s`,
    row.ok ? 'ok' : 'FAIL',
    row.busyShare === null ? '' : `${Math.round(row.busyShare * 100)}%`,
    row.stealShare === null ? '' : `${Math.round(row.stealShare * 100)}%`,
    row.load,
  ])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length))
  )
  const format = (cells) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ')
  console.log(`\n${kind === 'mysql' ? 'MariaDB' : 'SQLite'}`)
  console.log(format(header))
  console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  for (const line of lines) console.log(format(line))
}

buildWhenStale(root, log)
console.log(
  `drop benchmark: U=${settings.users} S=${settings.slots} C=${settings.connections} ` +
    `duration=${settings.duration}s pool=${settings.pool ?? 10} | ${cpus().length} x ${cpus()[0]?.model} ` +
    `| ${(totalmem() / 2 ** 30).toFixed(1)} GiB | node ${process.version} | load ${load()}`
)
const results = {}
const allFailures = []
for (const kind of databases) {
  const { rows, summary, failures } = await runDatabase(kind)
  printTable(kind, rows)
  results[kind] = summary
  allFailures.push(...failures)
}
if (flags['cpu-prof']) {
  const profileDir = join(root, 'tmp', 'bench', 'prof')
  mkdirSync(profileDir, { recursive: true })
  writeFileSync(join(profileDir, 'phases.json'), JSON.stringify(phaseWindows, null, 2))
}
for (const failure of allFailures) console.log(`FAIL ${failure}`)
console.log(JSON.stringify(results))
process.exitCode = allFailures.length ? 1 : 0
