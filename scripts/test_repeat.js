#!/usr/bin/env node
/*
| The flake detector: runs one spec again and again, in a new random order each time, on SQLite
| and on MariaDB, and prints every failure with the seed that runs its order again.
|
|   npm run test:repeat -- --files tests/functional/cli/queue_commands.spec.ts --times 20
|   npm run test:repeat -- --files <spec> --times 5 --db sqlite --tests "its title"
|
| Each run has its own database, ports, installation id and queue prefix, so it can run beside
| the rest of the suite. Exits 1 when any run failed.
*/
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const USAGE =
  'usage: npm run test:repeat -- --files <spec> [--files <spec> ...] [--times N] ' +
  '[--db sqlite|mysql|both] [--tests "title"] [--suite functional|unit]'

function options() {
  try {
    const { values } = parseArgs({
      options: {
        files: { type: 'string', multiple: true },
        times: { type: 'string', default: '20' },
        db: { type: 'string', default: 'both' },
        tests: { type: 'string' },
        suite: { type: 'string', default: 'functional' },
      },
    })
    const times = Number(values.times)
    if (!values.files?.length) throw new Error('--files is required')
    if (!Number.isInteger(times) || times < 1) throw new Error('--times takes a whole number >= 1')
    if (!['sqlite', 'mysql', 'both'].includes(values.db))
      throw new Error('--db: sqlite, mysql or both')
    return { ...values, times }
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`)
    process.exit(2)
  }
}

/** One run's environment: nothing it uses is shared with another run or with the suite. */
function isolatedEnv(database, run) {
  const slot = 3600 + (run % 200)
  const env = {
    ...process.env,
    TEST_SEED: 'random',
    PORT: String(slot),
    APP_URL: `http://localhost:${slot}`,
    SMTP_PORT: String(slot - 1000),
    INSTALLATION_ID: `testrepeat${process.pid}${run}`,
    QUEUE_PREFIX: `repeat${process.pid}-${run}`,
  }
  if (database === 'mysql') {
    return { ...env, DB_CONNECTION: 'mysql', MYSQL_DB_NAME: `dropslot_repeat_${process.pid}` }
  }
  return { ...env, DB_CONNECTION: 'sqlite', SQLITE_PATH: sqlitePath() }
}

const sqlitePath = () => join(tmpdir(), `dropslot-repeat-${process.pid}.sqlite3`)

function runOnce(args, env) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, ['ace', 'test', ...args], { env })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => {
      const plain = output.replaceAll(/\x1b\[[0-9;]*m/g, '')
      const seed = /TEST_SEED=(\d+)/.exec(plain)?.[1] ?? '?'
      const failed = plain
        .split('\n')
        .filter((line) => line.trimStart().startsWith('✖'))
        .map((line) => line.trim())
      resolve({ code, seed, failed, output: plain, seconds: (Date.now() - started) / 1000 })
    })
  })
}

const opts = options()
const args = [opts.suite, ...opts.files.flatMap((file) => ['--files', file])]
if (opts.tests) args.push('--tests', opts.tests)
const databases = opts.db === 'both' ? ['sqlite', 'mysql'] : [opts.db]
const failures = []
let run = 0
for (let round = 1; round <= opts.times; round++) {
  for (const database of databases) {
    run++
    const result = await runOnce(args, isolatedEnv(database, run))
    const verdict = result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`
    console.log(
      `${round}/${opts.times} ${database} TEST_SEED=${result.seed} ${verdict} ` +
        `in ${result.seconds.toFixed(1)} s`
    )
    if (result.code !== 0) {
      failures.push({ database, ...result })
      for (const line of result.failed) console.log(`    ${line}`)
      // The runner's own report of the failure, for the first failure of each database.
      if (failures.filter((each) => each.database === database).length === 1) {
        const errors = result.output.indexOf(' ERRORS ')
        console.log(result.output.slice(errors === -1 ? -4000 : errors, errors + 6000))
      }
    }
  }
}
rmSync(sqlitePath(), { force: true })
for (const suffix of ['-wal', '-shm']) rmSync(`${sqlitePath()}${suffix}`, { force: true })
if (databases.includes('mysql')) {
  // The runs' MariaDB database goes too (each run re-created it; the last one is left).
  const mysql = await import('mysql2/promise')
  const connection = await mysql.createConnection({
    host: process.env.MYSQL_HOST ?? '127.0.0.1',
    port: Number(process.env.MYSQL_PORT ?? 3306),
    user: process.env.MYSQL_USER ?? 'root',
    password: process.env.MYSQL_PASSWORD ?? '',
  })
  await connection.query(`DROP DATABASE IF EXISTS \`dropslot_repeat_${process.pid}\``)
  await connection.end()
}

console.log(`\n${run - failures.length} of ${run} runs passed`)
for (const failure of failures) {
  const dbEnv = failure.database === 'mysql' ? 'DB_CONNECTION=mysql ' : ''
  console.log(
    `again: ${dbEnv}TEST_SEED=${failure.seed} node ace test ${args.join(' ')}  # ` +
      failure.failed.join('; ')
  )
}
process.exit(failures.length === 0 ? 0 : 1)
