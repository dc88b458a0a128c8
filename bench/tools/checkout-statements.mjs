#!/usr/bin/env node
/*
| node bench/tools/checkout-statements.mjs [--checkouts 200] [--root <a checkout of the repo>]
|
| How many SQL statements one checkout sends to MariaDB, counted by the server itself: the
| production build runs as its own MariaDB user, and MariaDB's per-user statistics (userstat)
| count that user's SELECTs, writes (INSERT/UPDATE/DELETE) and others (CALL, BEGIN, COMMIT, ...)
| across the purchases, so nothing else on the server is counted. `--root` measures another copy
| of the repository (an earlier commit in a git worktree) with the same code, to compare.
| Prints one JSON line. Never touches a database other than dropslot_bench_statements.
*/
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { connect, resetDatabase, seed } from '../lib/store.js'
import { buildWhenStale } from '../../scripts/build_when_stale.js'
import { stop, waitForHealth } from '../lib/processes.js'

const here = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const { values: flags } = parseArgs({
  options: {
    checkouts: { type: 'string', default: '200' },
    root: { type: 'string', default: here },
    port: { type: 'string', default: '3770' },
  },
})
const root = resolve(flags.root)
const checkouts = Number(flags.checkouts)
const port = Number(flags.port)
const log = (...args) => console.error(...args)
const database = { db: 'mysql', database: 'dropslot_bench_statements' }
const dbUser = 'ds_bench_statements'
const vaultKeys = `bench:${randomBytes(32).toString('hex')}`

buildWhenStale(root, log)
const buildDir = join(root, 'build')
const env = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: String(port),
  LOG_LEVEL: 'warn',
  APP_KEY: randomBytes(32).toString('base64url'),
  PROFILE_TRANSPORT_KEY: randomBytes(32).toString('hex'),
  VAULT_KEYS: vaultKeys,
  INSTALLATION_ID: `bench${randomBytes(8).toString('hex')}`,
  SANDBOX_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
  DB_CONNECTION: 'mysql',
  MYSQL_HOST: '127.0.0.1',
  MYSQL_DB_NAME: database.database,
  RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000000',
  RATE_LIMIT_CHECKOUT_IP_PER_MINUTE: '100000000',
  // The holds would be placed by the same process and counted with the purchases.
  HOLD_WORKER_ENABLED: 'false',
  // So would the receipts' deliveries: the mail server production needs named is a local port
  // nothing listens on, never reached with the email queue left to another process.
  EMAIL_WORKER_ENABLED: 'false',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: '9',
}

await resetDatabase(database)
execFileSync(process.execPath, ['ace', 'migration:run', '--force'], {
  cwd: buildDir,
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
})
const client = await connect(database)
const { customers, productIds } = await seed(client, {
  users: checkouts + 20,
  vaultKeys,
  products: { warm: 20, counted: checkouts },
})
for (const host of ['127.0.0.1', 'localhost']) {
  await client.query(`CREATE USER IF NOT EXISTS '${dbUser}'@'${host}'`)
  await client.query(`GRANT ALL ON \`${database.database}\`.* TO '${dbUser}'@'${host}'`)
}
await client.query('SET GLOBAL userstat = 1')

async function counters() {
  const [row] = await client.query(
    `SELECT SELECT_COMMANDS AS selects, UPDATE_COMMANDS AS writes, OTHER_COMMANDS AS others
       FROM information_schema.USER_STATISTICS WHERE USER = ?`,
    [dbUser]
  )
  return {
    selects: Number(row?.selects ?? 0),
    writes: Number(row?.writes ?? 0),
    others: Number(row?.others ?? 0),
  }
}

async function buy(customer, productId) {
  const response = await fetch(`http://127.0.0.1:${port}/api/checkout/withprofile`, {
    method: 'POST',
    headers: { 'authorization': `Bearer ${customer.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ productId, style: 'OS', size: 'OS', profileId: customer.profileId }),
  })
  if (response.status !== 201) throw new Error(`checkout answered ${response.status}`)
}

const app = spawn(process.execPath, ['bin/server.js'], {
  cwd: buildDir,
  env: { ...env, MYSQL_USER: dbUser },
  stdio: 'inherit',
})
let result
try {
  await waitForHealth(port, app)
  for (const customer of customers.slice(0, 20)) await buy(customer, productIds.warm)
  // Let the batched token last-use writes of the warm-up land before counting.
  await new Promise((done) => setTimeout(done, 2000))
  const before = await counters()
  for (const customer of customers.slice(20)) await buy(customer, productIds.counted)
  await new Promise((done) => setTimeout(done, 2000))
  const after = await counters()
  const per = (field) => Math.round(((after[field] - before[field]) / checkouts) * 100) / 100
  result = {
    root,
    checkouts,
    perCheckout: {
      selects: per('selects'),
      writes: per('writes'),
      others: per('others'),
      total: Math.round((per('selects') + per('writes') + per('others')) * 100) / 100,
    },
  }
} finally {
  await stop(app)
  await client.query('SET GLOBAL userstat = 0')
  await client.close()
}
console.log(JSON.stringify(result))
process.exit(0)
