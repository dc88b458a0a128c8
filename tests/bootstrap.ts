import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import { clock } from '#core/services/clock'
import { shuffleSuite, testOrderSeed } from '#tests/support/test_order'
import { releaseReports } from '#release/services/release_report'
import { clearRateLimits } from '#tests/support/rate_limits'

export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

/**
 * Every run starts on a fresh database: the SQLite file is deleted, or the MariaDB test
 * database is dropped and created again, then all migrations run.
 */
async function freshDatabase() {
  if (env.get('DB_CONNECTION', 'sqlite') === 'mysql') {
    const mysql = await import('mysql2/promise')
    const name = env.get('MYSQL_DB_NAME', 'dropslot_test')
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Refusing odd database name ${name}`)
    const connection = await mysql.createConnection({
      host: env.get('MYSQL_HOST', '127.0.0.1'),
      port: env.get('MYSQL_PORT', 3306),
      user: env.get('MYSQL_USER', 'root'),
      password: env.get('MYSQL_PASSWORD', ''),
    })
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``)
    await connection.query(
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`
    )
    await connection.end()
  } else {
    const file = app.config.get<string>('database.connections.sqlite.connection.filename')
    for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true })
  }
  // No advisory lock: MariaDB's GET_LOCK is server-wide, so parallel runs on other test databases
  // would collide, and a pooled connection may release it from another session.
  const migrator = new MigrationRunner(db, app, { direction: 'up', disableLocks: true })
  await migrator.run()
  if (migrator.error) throw migrator.error
}

let taskFilesDirectory: string | null = null

/**
 * The files engine's tasks carry each profile's card: in a test run they go to a folder of the
 * run's own, removed when it ends, not to the repository's tmp/checkout-tasks.
 */
async function taskFilesOfTheRun() {
  if (process.env.CHECKOUT_FILES_DIR) return
  taskFilesDirectory = await mkdtemp(join(tmpdir(), 'dropslot-test-tasks-'))
  env.set('CHECKOUT_FILES_DIR', taskFilesDirectory)
}

async function removeTaskFiles() {
  if (taskFilesDirectory) await rm(taskFilesDirectory, { recursive: true, force: true })
}

export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [freshDatabase, taskFilesOfTheRun],
  teardown: [removeTaskFiles],
}

/** The browser suite drives the storefront against the demo catalogue, promo code and customer. */
async function seedDemoData() {
  const { default: DemoSeeder } = await import('#database/seeders/demo_seeder')
  await new DemoSeeder(db.connection()).run()
}

const orderSeed = testOrderSeed()
if (orderSeed !== null) {
  console.log(`Tests in random order: TEST_SEED=${orderSeed} runs this order again`)
}

/**
 * The environment as it was before a test: restored after it (its cleanup hooks included, and
 * whether it passed, failed or timed out), in process.env and in the env service, which keeps
 * its own copy of each value it was given with `env.set`.
 */
function keepEnvironment() {
  const saved = { ...process.env }
  const values = new Map(Object.keys(saved).map((name) => [name, env.get(name as any)]))
  return () => {
    const names = new Set([...Object.keys(saved), ...Object.keys(process.env)])
    for (const name of names) {
      const before = saved[name]
      if (process.env[name] === before) continue
      // A value the env service did not hold apart from process.env is dropped from it again.
      const held = values.get(name)
      env.set(name as any, (held === before ? undefined : held) as any)
      if (before === undefined) delete process.env[name]
      else process.env[name] = before
    }
  }
}

export const configureSuite: Config['configureSuite'] = (suite) => {
  // First among each test's setup hooks, so the restore runs after their cleanups.
  suite.onGroup((group) => group.each.setup(keepEnvironment))
  suite.onTest((test) => test.setup(keepEnvironment))
  if (suite.name === 'browser') suite.setup(seedDemoData)
  else if (orderSeed !== null) shuffleSuite(suite, orderSeed)
  if (['browser', 'functional', 'e2e'].includes(suite.name)) {
    // Every test starts with fresh rate-limit counters (the rate-limit tests exhaust them inside
    // one test), no remembered sell-outs (SQLite hands a rolled-back product's id out again) and
    // the system clock (a test that moved time leaves it moved for nobody else), and no release
    // report kept from a product id a rolled-back test used.
    const resetProcessState = () => {
      clock.reset()
      soldOutMemory.clear()
      releaseReports.forget()
      return clearRateLimits()
    }
    suite.onGroup((group) => group.each.setup(resetProcessState))
    suite.onTest((test) => test.setup(resetProcessState))
    return suite.setup(() => testUtils.httpServer().start())
  }
}
