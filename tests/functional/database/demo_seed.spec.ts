import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import DemoSeeder, {
  DEMO_ADMIN,
  DEMO_CUSTOMER,
  DEMO_DRAWS,
  DEMO_RELEASE,
} from '#database/seeders/demo_seeder'
import { DEMO_PAST_RELEASE } from '#database/demo/demo_outcomes'
import { customerWithCard, profileFor } from '#tests/helpers'
import { RUNS_IN_THE_SQLITE_SUITE, SUITE_ON_MARIADB } from '#tests/support/own_sqlite'

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
    // A sneaker shows a sneaker: none wears the sample T-shirt's picture.
    const sneakers = await db.from('products').where('size_type', 'shoe').select('slug', 'image')
    for (const product of sneakers) assert.notInclude(product.image, 'tee', product.slug)
    const customer = await db.from('users').where('email', DEMO_CUSTOMER.email).firstOrFail()
    const admin = await db.from('users').where('email', DEMO_ADMIN.email).firstOrFail()
    assert.equal(admin.role, 'owner')
    const profiles = await db.from('profiles').where('user_id', customer.id)
    assert.isAtLeast(profiles.length, 2)
  })

  test("the demo customer has orders in every state, and a past release's report is out", async ({
    assert,
    client,
  }) => {
    await new DemoSeeder(db.connection()).run()
    const customer = await db.from('users').where('email', DEMO_CUSTOMER.email).firstOrFail()
    const orders = await db
      .from('orders')
      .join('products', 'products.id', 'orders.product_id')
      .where('orders.user_id', customer.id)
      .select('products.slug', 'orders.status', 'orders.hold_status', 'orders.fee_status')
    const of = (slug: string) => orders.filter((order) => order.slug === slug)
    assert.deepEqual(
      of(DEMO_RELEASE.slug).map((order) => [order.status, order.hold_status]),
      [['pending', 'placed']]
    )
    assert.deepEqual(
      of(DEMO_DRAWS.open.slug).map((order) => [order.status, order.hold_status]),
      [['entered', 'placed']]
    )
    assert.sameDeepMembers(
      of(DEMO_PAST_RELEASE.slug).map((order) => [order.status, order.fee_status]),
      [
        ['success', 'paid'],
        ['fail', 'none'],
      ]
    )
    // Release day's demo: every demo customer's two slots and the demo customer's one.
    const releaseDay = await db.from('products').where('slug', DEMO_RELEASE.slug).firstOrFail()
    const waiting = await db.from('orders').where('product_id', releaseDay.id).count('* as total')
    assert.equal(Number(waiting[0].total), DEMO_RELEASE.customers.length * 2 + 1)

    const past = await db.from('products').where('slug', DEMO_PAST_RELEASE.slug).firstOrFail()
    const report = await client.get(`/api/releases/${past.id}/report`)
    report.assertStatus(200)
    assert.containsSubset(report.body(), {
      settled: true,
      orders: 10,
      submitted: 10,
      succeeded: 4,
      cancelledAfterSuccess: 1,
      product: { retailer: 'adidas' },
    })
    assert.deepEqual(
      report.body().checks.map((check: any) => check.ok),
      [true, true]
    )
    const listed = await client.get('/api/releases')
    assert.include(
      listed.body().releases.map((release: any) => release.productId),
      past.id
    )
  })
})

test.group("Demo seed and the README's test card", (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('no seeded account holds 4242: a newcomer who saves it enters the demo draw', async ({
    client,
    assert,
  }) => {
    // The seed's own accounts only: other tests' processes commit customers of their own.
    const before = await db.from('users').max('id as id').first()
    await new DemoSeeder(db.connection()).run()
    const seeded = await db
      .from('users')
      .where('id', '>', before?.id ?? 0)
      .whereNotNull('card_last4')
    assert.isAbove(seeded.length, 0)
    assert.notInclude(
      seeded.map((user) => user.card_last4),
      '4242'
    )
    const seededProfiles = db.from('profiles').where('user_id', '>', before?.id ?? 0)
    assert.lengthOf(await seededProfiles.where('card_last4', '4242'), 0)
    const customer = seeded.find((user) => user.email === DEMO_CUSTOMER.email)
    assert.include(customer, { card_brand: 'mastercard', card_last4: '4444' })

    // The README's card, saved by a newcomer, is a card no demo entry holds.
    const newcomer = await customerWithCard('4242424242424242')
    const saved = await db.from('users').where('id', newcomer.user.id).firstOrFail()
    assert.isString(saved.card_fingerprint)
    assert.notInclude(
      seeded.map((user) => user.card_fingerprint),
      saved.card_fingerprint
    )
    const profile = await profileFor(newcomer.user)
    const draw = await db.from('products').where('slug', DEMO_DRAWS.open.slug).firstOrFail()
    const entered = await client
      .post('/api/checkout/withprofile')
      .bearerToken(newcomer.token)
      .json({ productId: draw.id, style: 'White / Black', size: '9', profileId: profile.publicId })
    entered.assertStatus(201)
    assert.equal(entered.body().order.status, 'entered')
  })
})

test.group('Demo seed through ace, as npm start runs it', () => {
  test('db:seed seeds a fresh database quietly: the demo orders and the settled past release', async ({
    assert,
  }) => {
    const file = `${ROOT}tmp/development-seed-check-${process.pid}.sqlite3`
    const env = {
      NODE_ENV: 'development',
      DB_CONNECTION: 'sqlite',
      SQLITE_PATH: file,
      LOG_LEVEL: 'info',
    }
    try {
      const migrate = await ace(['migration:run', '--force'], env)
      assert.equal(migrate.code, 0, migrate.output)
      const seed = await ace(['db:seed'], env)
      assert.equal(seed.code, 0, seed.output)
      // The demo's holds, charges and sold-out orders are its set-up: none is logged at info.
      for (const event of ['hold.placed', 'order.result', 'fee.charged', 'run.start']) {
        assert.notInclude(seed.output, event)
      }
      assert.isAtMost(seed.output.trim().split('\n').length, 3, seed.output)
      const driver: any = await import('better-sqlite3' as string)
      const check = new driver.default(file, { readonly: true })
      const statuses = check
        .prepare(
          `select orders.status from orders join users on users.id = orders.user_id
           where users.email = ? order by orders.status`
        )
        .all(DEMO_CUSTOMER.email)
        .map((row: { status: string }) => row.status)
      check.close()
      assert.deepEqual(statuses, ['entered', 'fail', 'pending', 'success'])
    } finally {
      for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true })
    }
  })
    .timeout(180_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)
})

test.group('Demo seed in production', () => {
  test('refuses to run and writes nothing', async ({ assert }) => {
    const file = `${ROOT}tmp/production-seed-check-${process.pid}.sqlite3`
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
      // Nothing is seeded, nothing e-mailed: a local port nothing listens on stands in for SMTP.
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '9',
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
  })
    .timeout(180_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)
})
