#!/usr/bin/env node
/*
| npm run bench:scale [-- --smoke] [--users 3000 --slots 300 --rate 20 --release-orders 2000]
|
| Dropslot at scale, against the production build on MariaDB and Redis (QUEUE_DRIVER=bullmq):
| 2 web processes and 2 workers. Customers rush one drop through one web process, then another
| drop spread over both (checkouts/s with 1 and with 2 web processes, same run); the workers
| place the $1.00 holds on the rate-limited gateway queue. Then release runs (the CLI from the
| build, simulator engine): one plain, one with a worker killed by SIGKILL while the gateway
| queue still has work, one big release for the gateway rate. Checks from the database and the
| sandbox gateway: never oversold, each hold placed once, each fee charged at most once and only
| on success, each e-mail recorded once, no 429 from the sandbox, no 5xx. Ends with one JSON
| line; exits 1 on any violation. Never touches a database other than dropslot_bench_scale.
*/
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { Redis } from 'ioredis'
import { connect, resetDatabase, seed, sqlTime } from './lib/store.js'
import { buildWhenStale } from '../scripts/build_when_stale.js'
import { stop, waitForHealth } from './lib/processes.js'
import { startSmtpStandIn } from './lib/smtp_stand_in.js'
import { followOrders } from './lib/live.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const buildDir = join(root, 'build')
const { values: flags } = parseArgs({
  options: {
    'smoke': { type: 'boolean', default: false },
    'users': { type: 'string' },
    'slots': { type: 'string' },
    'rate': { type: 'string', default: '20' },
    'release-orders': { type: 'string' },
    'connections': { type: 'string', default: '50' },
    'port': { type: 'string', default: '3760' },
    'redis': { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
})
const smoke = flags.smoke
const settings = {
  users: Number(flags.users ?? (smoke ? 300 : 3000)),
  slots: Number(flags.slots ?? (smoke ? 30 : 300)),
  releaseOrders: Number(flags['release-orders'] ?? (smoke ? 120 : 2000)),
  rate: Number(flags.rate),
  connections: Number(flags.connections),
  port: Number(flags.port),
}
// The workers send the receipts and outcome e-mails, to a local stand-in of the mail server.
const smtpPort = settings.port + 9
const log = (...args) => console.error(...args)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const database = { db: 'mysql', database: 'dropslot_bench_scale' }
const prefix = `dsbench-${randomBytes(4).toString('hex')}`
const secrets = {
  APP_KEY: randomBytes(32).toString('base64url'),
  PROFILE_TRANSPORT_KEY: randomBytes(32).toString('hex'),
  VAULT_KEYS: `bench:${randomBytes(32).toString('hex')}`,
  INSTALLATION_ID: `bench${randomBytes(8).toString('hex')}`,
  SANDBOX_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
  PAYMENT_GATEWAY: 'sandbox',
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  CHECKOUT_TASK_SECRET: randomBytes(32).toString('base64url'),
  CHECKOUT_RESULTS_SECRET: randomBytes(32).toString('base64url'),
  DRAW_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
}

function appEnv(port) {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port ?? settings.port),
    LOG_LEVEL: 'warn',
    ...secrets,
    DB_CONNECTION: 'mysql',
    MYSQL_DB_NAME: database.database,
    REDIS_URL: flags.redis,
    QUEUE_DRIVER: 'bullmq',
    QUEUE_PREFIX: prefix,
    QUEUE_CONCURRENCY: '5',
    GATEWAY_RATE_PER_SECOND: String(settings.rate),
    // The sandbox stands for one gateway account: its budget is the configured rate, shared by
    // every process through Redis, and each call takes as long as a call over the network.
    SANDBOX_RPS: String(settings.rate),
    SANDBOX_LATENCY_MS: '60',
    CHECKOUT_ENGINE: 'simulator',
    SIMULATOR_SUCCESS_RATE: '0.7',
    // One address sends every customer's request: the per-address limits are for real traffic.
    RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000000',
    RATE_LIMIT_CHECKOUT_IP_PER_MINUTE: '100000000',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    // The smoke takes a killed worker's jobs and money locks over sooner than production's 30 s
    // and 60 s: the same take-over, checked the same way, without a minute of waiting.
    ...(smoke ? { QUEUE_STALLED_AFTER_MS: '5000', RELEASE_LOCK_TTL_MS: '10000' } : {}),
  }
}

const children = new Set()
function start(name, args, port) {
  const child = spawn(process.execPath, args, {
    cwd: buildDir,
    env: appEnv(port),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  child.name = name
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}
const startWeb = (port) => start(`web:${port}`, ['bin/server.js'], port)
const startWorker = (name) => start(name, ['ace.js', 'queue:work'])

/** One rush: each customer once, spread round-robin over the given web ports. */
async function rush(ports, customers, productId) {
  const statuses = {}
  const started = performance.now()
  let last = started
  const perPort = ports.map((port, index) => ({
    port,
    customers: customers.filter((_, position) => position % ports.length === index),
  }))
  await Promise.all(
    perPort.map(({ port, customers: mine }) => {
      let next = 0
      const instance = autocannon({
        url: `http://127.0.0.1:${port}`,
        connections: Math.min(settings.connections, mine.length),
        amount: mine.length,
        timeout: 30,
        requests: [
          {
            method: 'POST',
            path: '/api/checkout/withprofile',
            setupRequest(request) {
              const customer = mine[next++ % mine.length]
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
      instance.on('response', (_client, statusCode) => {
        last = performance.now()
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
      })
      return instance
    })
  )
  const seconds = (last - started) / 1000
  const responses = Object.values(statuses).reduce((sum, count) => sum + count, 0)
  const errors5xx = Object.entries(statuses)
    .filter(([code]) => Number(code) >= 500)
    .reduce((sum, [, count]) => sum + count, 0)
  return { responses, seconds, perSecond: responses / seconds, statuses, errors5xx }
}

async function until(label, read, done, timeoutMs) {
  const stopAt = Date.now() + timeoutMs
  let value = await read()
  while (!done(value)) {
    if (Date.now() > stopAt) throw new Error(`${label}: still ${JSON.stringify(value)}`)
    await sleep(200)
    value = await read()
  }
  return value
}

async function holdsSettled(client, productId) {
  const [row] = await client.query(
    `SELECT COUNT(*) AS orders,
       SUM(CASE WHEN hold_status IN ('queued', 'placing') THEN 1 ELSE 0 END) AS waiting
     FROM orders WHERE product_id = ?`,
    [productId]
  )
  return { orders: Number(row.orders), waiting: Number(row.waiting ?? 0) }
}

async function releaseSettled(client, productId) {
  const [row] = await client.query(
    `SELECT COUNT(*) AS orders,
       SUM(CASE WHEN status IN ('success', 'fail') THEN 1 ELSE 0 END) AS final,
       SUM(CASE WHEN status = 'success' AND fee_status = 'none' THEN 1 ELSE 0 END) AS unpaid,
       SUM(CASE WHEN hold_status = 'placed' THEN 1 ELSE 0 END) AS held
     FROM orders WHERE product_id = ? AND status <> 'cancelled'`,
    [productId]
  )
  const [tasks] = await client.query(
    `SELECT COUNT(*) AS n FROM release_tasks WHERE product_id = ? AND status <> 'done'`,
    [productId]
  )
  return {
    orders: Number(row.orders),
    final: Number(row.final ?? 0),
    unpaid: Number(row.unpaid ?? 0),
    held: Number(row.held ?? 0),
    openTasks: Number(tasks.n),
  }
}

const settledRelease = (state) =>
  state.final === state.orders && state.unpaid === 0 && state.held === 0 && state.openTasks === 0

function releaseNow(client, productId) {
  return client.query('UPDATE products SET release_at = ? WHERE id = ?', [
    sqlTime(new Date(Date.now() - 60_000)),
    productId,
  ])
}

function runRelease(productId) {
  const output = execFileSync(
    process.execPath,
    ['cli/dropslot.js', '--json', 'release:run', '--product', String(productId)],
    { cwd: buildDir, env: appEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }
  )
  return JSON.parse(output)
}

/** The gateway's own record: every intent by order and purpose, for the exactly-once checks. */
async function gatewayIntents(client, productId) {
  const orders = await client.query(
    'SELECT public_id, status, fee_status FROM orders WHERE product_id = ?',
    [productId]
  )
  const ids = new Set(orders.map((order) => order.public_id))
  const intents = await client.query(
    'SELECT metadata, status FROM sandbox_payment_intents WHERE metadata IS NOT NULL'
  )
  const count = { hold: new Map(), fee: new Map() }
  for (const intent of intents) {
    const meta = JSON.parse(intent.metadata)
    if (!ids.has(meta.order_id) || !count[meta.purpose]) continue
    if (meta.purpose === 'fee' && intent.status !== 'succeeded') continue
    count[meta.purpose].set(meta.order_id, (count[meta.purpose].get(meta.order_id) ?? 0) + 1)
  }
  return { orders, count }
}

/** The exactly-once checks of one released product; returns the violations found. */
async function verifyRelease(client, label, productId) {
  const violations = []
  const [product] = await client.query(
    'SELECT total_stock, stock_taken FROM products WHERE id = ?',
    [productId]
  )
  const [sold] = await client.query(
    "SELECT COUNT(*) AS n FROM orders WHERE product_id = ? AND status <> 'cancelled'",
    [productId]
  )
  if (Number(product.stock_taken) > Number(product.total_stock)) {
    violations.push(`${label}: ${product.stock_taken} slots taken of ${product.total_stock}`)
  }
  if (Number(sold.n) > Number(product.total_stock)) {
    violations.push(`${label}: ${sold.n} orders for ${product.total_stock} slots (oversold)`)
  }
  const { orders, count } = await gatewayIntents(client, productId)
  let successes = 0
  for (const order of orders) {
    const holds = count.hold.get(order.public_id) ?? 0
    const fees = count.fee.get(order.public_id) ?? 0
    if (order.status !== 'cancelled' && holds !== 1) {
      violations.push(`${label}: order ${order.public_id} has ${holds} holds at the gateway`)
    }
    if (order.status === 'success') successes++
    if (fees > 1) violations.push(`${label}: order ${order.public_id} charged ${fees} times`)
    if (fees === 1 && order.status !== 'success') {
      violations.push(`${label}: order ${order.public_id} (${order.status}) was charged`)
    }
    if (order.status === 'success' && order.fee_status === 'paid' && fees !== 1) {
      violations.push(`${label}: order ${order.public_id} paid without a gateway charge`)
    }
  }
  const emails = await client.query(
    `SELECT e.order_id, e.template, COUNT(*) AS n FROM email_messages e
     JOIN orders o ON o.id = e.order_id
     WHERE o.product_id = ? AND e.template IN ('order_received', 'order_secured', 'order_failed')
     GROUP BY e.order_id, e.template`,
    [productId]
  )
  for (const row of emails) {
    if (Number(row.n) !== 1) {
      violations.push(`${label}: order #${row.order_id} has ${row.n} ${row.template} e-mails`)
    }
  }
  const outcomes = emails.filter((row) => row.template !== 'order_received').length
  const finals = orders.filter((order) => ['success', 'fail'].includes(order.status)).length
  if (outcomes !== finals) {
    violations.push(`${label}: ${outcomes} outcome e-mails for ${finals} final orders`)
  }
  return { violations, orders: orders.length, successes }
}

/** Gateway calls per second while the queue was busy, from the sandbox's request log. */
async function gatewayRate(client, since) {
  const rows = await client.query(
    `SELECT created_at FROM sandbox_requests WHERE created_at >= ? ORDER BY created_at`,
    [since]
  )
  if (rows.length < 2) return { calls: rows.length, seconds: 0, perSecond: 0 }
  const first = new Date(`${rows[0].created_at}Z`).getTime()
  const last = new Date(`${rows.at(-1).created_at}Z`).getTime()
  // Timestamps are whole seconds: the busy period spans from the first second to the end of the last.
  const seconds = (last - first) / 1000 + 1
  return { calls: rows.length, seconds, perSecond: rows.length / seconds }
}

async function main() {
  const redis = new Redis(flags.redis, { maxRetriesPerRequest: 2 })
  const failures = []
  const figures = { smoke, ...settings }
  buildWhenStale(root, log)
  await resetDatabase(database)
  execFileSync(process.execPath, ['ace', 'migration:run', '--force'], {
    cwd: buildDir,
    env: appEnv(),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const client = await connect(database)
  const release = settings.releaseOrders
  log(`seeding ${settings.users} customers`)
  const { customers, productIds } = await seed(client, {
    users: Math.max(settings.users, release),
    vaultKeys: secrets.VAULT_KEYS,
    products: { 'one-web': settings.slots, 'two-web': settings.slots, 'big-release': release },
  })
  const rushers = customers.slice(0, settings.users)
  const ports = [settings.port, settings.port + 1]
  const smtp = await startSmtpStandIn(smtpPort)
  children.add(smtp)
  smtp.once('exit', () => children.delete(smtp))
  const webs = ports.map((port) => startWeb(port))
  const workers = [startWorker('worker-1'), startWorker('worker-2')]
  try {
    await Promise.all(webs.map((web, index) => waitForHealth(ports[index], web)))
    log(`rush: ${rushers.length} customers, ${settings.slots} slots, one web process`)
    const one = await rush([ports[0]], rushers, productIds['one-web'])
    log(`rush: ${rushers.length} customers, ${settings.slots} slots, two web processes`)
    const two = await rush(ports, rushers, productIds['two-web'])
    figures.checkoutsPerSecond = { oneWeb: round(one.perSecond), twoWeb: round(two.perSecond) }
    figures.scaling = round(two.perSecond / one.perSecond)
    for (const [label, result] of [
      ['one web', one],
      ['two web', two],
    ]) {
      if (result.errors5xx) failures.push(`${label}: ${result.errors5xx} answers were 5xx`)
      if ((result.statuses[201] ?? 0) !== settings.slots) {
        failures.push(`${label}: ${result.statuses[201] ?? 0} slots sold of ${settings.slots}`)
      }
    }
    log('big release: its customers buy their slots')
    const big = await rush(ports, customers.slice(0, release), productIds['big-release'])
    if (big.errors5xx) failures.push(`big release rush: ${big.errors5xx} answers were 5xx`)

    log('waiting for the workers to place every $1.00 hold')
    for (const id of Object.values(productIds)) {
      await until(
        'holds',
        () => holdsSettled(client, id),
        (state) => state.waiting === 0,
        600_000
      )
    }

    // Customers follow their orders on the second web process while the CLI and the workers,
    // other processes, move them: each outcome must reach them through Redis.
    const followed = await client.query(
      `SELECT users.uuid, orders.public_id FROM orders JOIN users ON users.id = orders.user_id
       WHERE orders.product_id = ? AND orders.status = 'pending' ORDER BY orders.id LIMIT 5`,
      [productIds['two-web']]
    )
    const byUuid = new Map(rushers.map((customer) => [customer.uuid, customer]))
    const followers = await Promise.all(
      followed.map(async (row) => ({
        orderId: row.public_id,
        stream: await followOrders(ports[1], byUuid.get(row.uuid)),
      }))
    )

    log('release with both workers')
    await releaseNow(client, productIds['two-web'])
    const plain = runRelease(productIds['two-web'])
    await until(
      'release with both workers',
      () => releaseSettled(client, productIds['two-web']),
      settledRelease,
      300_000
    )
    figures.release = { submitted: plain.submitted, settling: plain.settling }
    const outcomeSeen = ({ orderId, stream }) =>
      stream.updates.some(
        (update) => update.orderId === orderId && ['success', 'fail'].includes(update.status)
      )
    await until(
      'live updates',
      async () => followers.filter(outcomeSeen).length,
      (reached) => reached === followers.length,
      15_000
    ).catch(() => {})
    const reached = followers.filter(outcomeSeen).length
    figures.liveUpdates = { followed: followers.length, reached }
    if (followers.length === 0 || reached < followers.length) {
      failures.push(`live updates: ${reached} of ${followers.length} outcomes reached the customer`)
    }
    await Promise.all(followers.map(({ stream }) => stream.close()))

    log('release with a worker killed by SIGKILL halfway')
    await releaseNow(client, productIds['one-web'])
    const queued = redisQueueLength(redis, 'gateway')
    const run = spawn(
      process.execPath,
      ['cli/dropslot.js', 'release:run', '--product', String(productIds['one-web'])],
      { cwd: buildDir, env: appEnv(), stdio: 'ignore' }
    )
    await until('gateway work queued', queued, (length) => length >= 3, 120_000)
    figures.killedWithWaiting = await queued()
    workers[0].kill('SIGKILL')
    log(`killed worker-1 with ${figures.killedWithWaiting} gateway jobs waiting or running`)
    await new Promise((resolve) => run.once('exit', resolve))
    log('run ended; waiting for worker-2 to finish the work')
    await until(
      'release after SIGKILL',
      () => releaseSettled(client, productIds['one-web']),
      settledRelease,
      300_000
    )

    log(`big release: ${release} orders through the gateway queue at ${settings.rate}/s`)
    await releaseNow(client, productIds['big-release'])
    const since = sqlTime(new Date(Date.now() - 1000))
    const refusedBefore = Number((await redis.get(refusalsKey())) ?? 0)
    runRelease(productIds['big-release'])
    await until(
      'big release',
      () => releaseSettled(client, productIds['big-release']),
      settledRelease,
      900_000
    )
    const rate = await gatewayRate(client, since)
    figures.gateway = {
      configuredPerSecond: settings.rate,
      calls: rate.calls,
      seconds: rate.seconds,
      perSecond: round(rate.perSecond),
      share: round(rate.perSecond / settings.rate),
      refused429: Number((await redis.get(refusalsKey())) ?? 0) - refusedBefore,
    }
    if (figures.gateway.refused429 > 0) {
      failures.push(`the sandbox refused ${figures.gateway.refused429} calls with 429`)
    }
    if (!smoke && figures.gateway.share < 0.9) {
      failures.push(`the gateway rate used was ${figures.gateway.share} of the configured rate`)
    }
    const totalRefused = Number((await redis.get(refusalsKey())) ?? 0)
    figures.refused429AllPhases = totalRefused
    if (totalRefused > 0) failures.push(`the sandbox refused ${totalRefused} calls in all`)

    for (const [label, id] of Object.entries(productIds)) {
      const verified = await verifyRelease(client, label, id)
      failures.push(...verified.violations)
      figures[label] = { orders: verified.orders, successes: verified.successes }
    }
  } finally {
    // The mail server last: a worker stopping still sends the e-mails of the jobs it finishes.
    await Promise.all([...children].filter((c) => c !== smtp).map((c) => stop(c, 60_000)))
    await stop(smtp, 60_000)
    await obliterate(redis)
    await redis.quit()
    await client.close()
  }
  figures.checks = failures.length === 0 ? 'ok' : failures
  for (const failure of failures) log(`VIOLATION ${failure}`)
  console.log(JSON.stringify(figures))
  process.exitCode = failures.length ? 1 : 0
}

const round = (value) => Math.round(value * 100) / 100
const refusalsKey = () => `${prefix}:sandbox-refused:${secrets.INSTALLATION_ID}`

/** Jobs waiting or delayed on one queue (BullMQ's keys under this run's prefix). */
function redisQueueLength(redis, queue) {
  return async () => {
    const [waiting, active, prioritized, delayed] = await Promise.all([
      redis.llen(`${prefix}:${queue}:wait`),
      redis.llen(`${prefix}:${queue}:active`),
      redis.zcard(`${prefix}:${queue}:prioritized`),
      redis.zcard(`${prefix}:${queue}:delayed`),
    ])
    return waiting + active + prioritized + delayed
  }
}

async function obliterate(redis) {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500)
    if (keys.length) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
  await redis.del(refusalsKey())
}

process.on('SIGINT', () => {
  for (const child of children) child.kill('SIGKILL')
  process.exit(130)
})

main().catch((error) => {
  log(error)
  for (const child of children) child.kill('SIGKILL')
  process.exit(1)
})
