import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import DemoSeeder, { DEMO_ADMIN, DEMO_CUSTOMER } from '#database/seeders/demo_seeder'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

async function counts() {
  const tables = ['users', 'products', 'profiles', 'promo_codes', 'orders']
  const result: Record<string, number> = {}
  for (const table of tables) {
    const [row] = await db.from(table).count('* as total')
    result[table] = Number(row.total)
  }
  return result
}

function ace(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['ace', ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr })
    )
  })
}

test.group('Demo seed', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('is realistic and a second run adds nothing', async ({ assert }) => {
    await new DemoSeeder(db.connection()).run()
    const first = await counts()
    await new DemoSeeder(db.connection()).run()
    assert.deepEqual(await counts(), first)

    const brands = await db.from('products').select('tags')
    for (const brand of ['adidas', 'nike', 'shopify', 'kith']) {
      assert.isTrue(
        brands.some((row) => row.tags.split(',').includes(brand)),
        `no ${brand} product`
      )
    }
    const customer = await db.from('users').where('email', DEMO_CUSTOMER.email).firstOrFail()
    const admin = await db.from('users').where('email', DEMO_ADMIN.email).firstOrFail()
    assert.equal(admin.role, 'admin')
    const profiles = await db.from('profiles').where('user_id', customer.id)
    assert.isAtLeast(profiles.length, 2)
  })
})

test.group('Demo seed in production', () => {
  test('refuses to run and writes nothing', async ({ assert }) => {
    const file = `${ROOT}tmp/production-seed-check.sqlite3`
    const env = {
      NODE_ENV: 'production',
      DB_CONNECTION: 'sqlite',
      SQLITE_PATH: file,
      LOG_LEVEL: 'silent',
      // Production refuses the test suite's payment values: this install's own.
      INSTALLATION_ID: 'seedcheck0123456789abcdef',
      SANDBOX_WEBHOOK_SECRET: `whsec_${'5e'.repeat(24)}`,
      PAYMENT_GATEWAY: 'sandbox',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      CHECKOUT_TASK_SECRET: randomBytes(32).toString('base64url'),
      CHECKOUT_RESULTS_SECRET: randomBytes(32).toString('base64url'),
      DRAW_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
    }
    try {
      const migrate = await ace(['migration:run', '--force'], env)
      assert.equal(migrate.code, 0, migrate.output)
      await ace(['db:seed'], env)
      const driver: any = await import('better-sqlite3' as string)
      const check = new driver.default(file, { readonly: true })
      const users = check.prepare('select count(*) as total from users').get() as { total: number }
      check.close()
      assert.equal(users.total, 0)
    } finally {
      for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true })
    }
  }).timeout(180_000)
})
