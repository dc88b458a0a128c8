import { test } from '@japa/runner'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import AuditLog from '#core/models/audit_log'
import EmailMessage from '#notifications/models/email_message'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { runCli, runCommand } from '#tests/support/cli'
import Order from '#orders/models/order'
import { UserFactory } from '#database/factories/user_factory'

async function cleanUp() {
  await removeCommittedReleaseData('clirel-')
  await Product.query().where('slug', 'like', 'cli-import-%').delete()
  await db.from('audit_logs').where('actor_label', 'like', 'cli:%').delete()
}

test.group('CLI: release-day commands', (group) => {
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    await cleanUp()
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await cleanUp()
    await restoreSandbox()
  })

  test('--help of the release commands; bad usage exits 2', async ({ assert }) => {
    const help = await runCommand(['--help'])
    assert.equal(help.code, 0)
    for (const command of [
      'release:run',
      'release:status',
      'orders:import-results',
      'orders:mark',
      'emails:resend',
      'aco:export',
      'products:import',
      'schedule:work',
      'release:unlock',
      'cards:purge',
    ]) {
      assert.include(help.stdout, command)
    }
    const badProduct = await runCommand(['release:run', '--product', 'abc'])
    assert.equal(badProduct.code, 2)
    assert.include(badProduct.stderr, '--product must be a product id')
    const noTarget = await runCommand(['emails:resend'])
    assert.equal(noTarget.code, 2)
    assert.include(noTarget.stderr, 'Give --order, or a scope: --product, --run and/or --status')
  })

  test('orders:mark, emails:resend and aco:export act on real orders', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(2, { emailPrefix: 'clirel-' })

    const marked = await runCommand([
      '--json',
      'orders:mark',
      orders[0].publicId,
      'success',
      '--confirmation',
      'FTL-778899',
    ])
    assert.equal(marked.code, 0, marked.stderr)
    assert.containsSubset(marked.json, {
      success: true,
      status: 'success',
      feeStatus: 'paid',
      holdStatus: 'released',
      confirmationNumber: 'FTL-778899',
    })
    const wrongWord = await runCommand(['orders:mark', orders[1].publicId, 'won'])
    assert.equal(wrongWord.code, 2)
    const contradiction = await runCommand(['orders:mark', orders[0].publicId, 'fail'])
    assert.equal(contradiction.code, 1)
    assert.include(contradiction.stderr, 'This order is successful; it cannot be marked failed.')

    const resent = await runCommand(['--json', 'emails:resend', '--order', orders[0].publicId])
    assert.equal(resent.code, 0, resent.stderr)
    assert.equal(resent.json.sent, 1)
    const copies = await EmailMessage.query()
      .where('order_id', orders[0].id)
      .where('template', 'order_secured')
    assert.deepEqual(
      copies.map((email) => email.subject.startsWith('[Resent]')),
      [false, true]
    )

    const out = await mkdtemp(join(tmpdir(), 'dropslot-aco-'))
    try {
      const noReason = await runCommand([
        'aco:export',
        '--product',
        String(product.id),
        '--format',
        'stellar',
        '--out',
        out,
      ])
      assert.equal(noReason.code, 2)
      const exported = await runCommand([
        '--json',
        'aco:export',
        '--product',
        String(product.id),
        '--format',
        'csv',
        '--out',
        out,
        '--reason',
        'Loading the backup bot',
      ])
      assert.equal(exported.code, 0, exported.stderr)
      // Only the order still to check out (the other one succeeded already).
      assert.equal(exported.json.orders, 1)
      const files = await readdir(out)
      assert.deepEqual(files, [`aco-product-${product.id}-csv.csv`])
      assert.include(await readFile(join(out, files[0]), 'utf8'), orders[1].publicId)
      const audit = await AuditLog.query().where('action', 'order.aco_export').firstOrFail()
      assert.equal(audit.reason, 'Loading the backup bot')
      assert.match(audit.actorLabel!, /^cli:/)
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  }).timeout(300_000)

  test('operator tools are audited with --as: mark, refund, import --dry-run, scoped resends', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(3, {
      emailPrefix: 'clirel-',
      priceCents: 2000,
    })
    const admin = await UserFactory.apply('admin')
      .merge({ email: `clirel-admin-${Date.now().toString(36)}@example.test` })
      .create()

    const notAdmin = await runCommand([
      '--as',
      'clirel-nobody@example.test',
      'orders:mark',
      orders[0].publicId,
      'success',
    ])
    assert.equal(notAdmin.code, 2)

    const marked = await runCommand([
      '--json',
      '--as',
      admin.email,
      'orders:mark',
      orders[0].publicId,
      'success',
      '--confirmation',
      'CLI-1',
    ])
    assert.equal(marked.code, 0, marked.stderr)
    const markAudit = await AuditLog.query()
      .where('action', 'order.mark_success')
      .where('subject_id', orders[0].publicId)
      .firstOrFail()
    assert.equal(markAudit.actorUserId, admin.id)
    assert.equal(markAudit.meta?.via, 'cli')
    const secured = await EmailMessage.query()
      .where('order_id', orders[0].id)
      .where('template', 'order_secured')
    assert.lengthOf(secured, 1)

    const noReason = await runCommand(['orders:refund', orders[0].publicId, '--amount', '5'])
    assert.equal(noReason.code, 2)
    const refunded = await runCommand([
      '--json',
      '--as',
      admin.email,
      'orders:refund',
      orders[0].publicId,
      '--amount',
      '5',
      '--reason',
      'Goodwill',
    ])
    assert.equal(refunded.code, 0, refunded.stderr)
    assert.containsSubset(refunded.json, {
      success: true,
      order: { feeStatus: 'paid', refundedCents: 500 },
    })
    const [intent] = await db
      .from('sandbox_payment_intents')
      .where('amount', 2000)
      .where('amount_refunded', 500)
    assert.exists(intent)
    const refundAudit = await AuditLog.query()
      .where('action', 'order.fee_refund')
      .where('subject_id', orders[0].publicId)
      .firstOrFail()
    assert.equal(refundAudit.actorUserId, admin.id)

    // A results file for orders never submitted to the files engine: refused, dry or not.
    const directory = await mkdtemp(join(tmpdir(), 'dropslot-cli-results-'))
    try {
      const file = join(directory, 'results.json')
      await writeFile(file, JSON.stringify([{ orderId: orders[1].publicId, status: 'success' }]))
      const dry = await runCommand(['--json', 'orders:import-results', file, '--dry-run'])
      assert.equal(dry.code, 0, dry.stderr)
      assert.equal(dry.json.dryRun, true)
      assert.deepEqual(dry.json.plan, [])
      assert.equal(dry.json.errors[0].code, 'not_submitted')
      const real = await runCommand(['--json', 'orders:import-results', file])
      assert.equal(real.code, 1)
      const order = await Order.findOrFail(orders[1].id)
      assert.equal(order.status, 'pending')
      const imports = await AuditLog.query()
        .whereIn('action', ['order.import_results', 'order.import_results_dry_run'])
        .where('actor_label', 'like', 'cli:%')
      assert.lengthOf(imports, 2)
    } finally {
      await rm(directory, { recursive: true, force: true })
    }

    const count = await runCommand([
      '--json',
      'emails:resend',
      '--product',
      String(product.id),
      '--dry-run',
    ])
    assert.equal(count.code, 0, count.stderr)
    assert.equal(count.json.emails, 3)
    const before = await EmailMessage.query().whereIn(
      'order_id',
      orders.map((o) => o.id)
    )
    const sent = await runCommand([
      '--json',
      'emails:resend',
      '--product',
      String(product.id),
      '--status',
      'success',
    ])
    assert.equal(sent.code, 0, sent.stderr)
    assert.equal(sent.json.sent, 1)
    const after = await EmailMessage.query().whereIn(
      'order_id',
      orders.map((o) => o.id)
    )
    assert.equal(after.length, before.length + 1)
    const resendAudit = await AuditLog.query()
      .where('action', 'order.email_resend_all')
      .where('actor_label', 'like', 'cli:%')
    assert.lengthOf(resendAudit, 1)
  }).timeout(300_000)

  test('release:run prints its summary; its log keeps to warnings unless --verbose', async ({
    assert,
  }) => {
    const { product } = await releasedProductWithOrders(2, { emailPrefix: 'clirel-' })
    // LOG_LEVEL=info as a host's .env or environment has it: a command still logs warnings only.
    const result = await runCli(['release:run', '--product', String(product.id)], {
      LOG_LEVEL: 'info',
    })
    assert.equal(result.code, 0, result.stderr)
    assert.include(result.stdout, 'Submitted 2:')
    assert.notInclude(result.stderr, 'run.start')
    assert.notInclude(result.stderr, 'order.result')
    const stderrLines = result.stderr.split('\n').filter((line) => line.trim())
    assert.isAtMost(stderrLines.length, 5, result.stderr)
  })

  test('release:run --verbose writes the operations log on stderr, stdout stays JSON', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(1, { emailPrefix: 'clirel-' })
    const result = await runCli([
      '--json',
      '--verbose',
      'release:run',
      '--product',
      String(product.id),
    ])
    assert.equal(result.code, 0, result.stderr)
    assert.equal(result.json.submitted, 1)
    const runId = String(result.json.runId)
    for (const event of ['run.start', 'order.submitted', 'order.result', 'run.end']) {
      assert.include(result.stderr, event)
    }
    assert.include(result.stderr, orders[0].publicId)
    assert.include(result.stderr, runId)
    assert.match(result.stderr, /fee\.charged|hold\.released/)
    assert.notInclude(result.stderr, '4242424242424242')
    assert.notInclude(result.stdout, 'run.start')
  })

  test('release:unlock frees a dead run lock, audited with the reason', async ({ assert }) => {
    const then = new Date(Date.now() - 5 * 60_000).toISOString().slice(0, 19).replace('T', ' ')
    const [runId] = await db.table('release_runs').insert({
      engine: 'simulator',
      dry_run: false,
      status: 'running',
      trigger: 'cli',
      lock_owner: 'clirel-host:1:dead',
      started_at: then,
      heartbeat_at: then,
    })
    await db
      .table('locks')
      .insert({ key: 'release:run', owner: 'clirel-host:1:dead', expiration: Date.now() - 1 })
    try {
      const missing = await runCommand(['release:unlock'])
      assert.equal(missing.code, 2)
      const freed = await runCommand(['release:unlock', '--reason', 'Host rebooted mid-run'])
      assert.equal(freed.code, 0, freed.stderr)
      assert.include(freed.stdout, 'Freed the release lock held by clirel-host:1:dead.')
      assert.include(freed.stdout, '1 run(s) marked interrupted')
      const run = await db.from('release_runs').where('id', runId).first()
      assert.equal(run.status, 'interrupted')
      const audit = await AuditLog.query().where('action', 'release.unlock').firstOrFail()
      assert.equal(audit.reason, 'Host rebooted mid-run')
      assert.match(audit.actorLabel ?? '', /^cli:/)
    } finally {
      await db.from('locks').where('owner', 'clirel-host:1:dead').delete()
      await db.from('release_runs').where('id', runId).delete()
    }
  })

  test('products:import upserts by slug and reports bad rows (exit 1)', async ({ assert }) => {
    const directory = await mkdtemp(join(tmpdir(), 'dropslot-import-'))
    try {
      const file = join(directory, 'products.csv')
      await writeFile(
        file,
        [
          'slug,productTitle,price,totalStock,sizeType,releaseAt',
          'cli-import-one,Imported One,25,100,shoe,2030-01-01T10:00:00Z',
          'cli-import-two,Imported Two,-5,100,shoe,',
        ].join('\n')
      )
      const first = await runCommand(['--json', 'products:import', file])
      assert.equal(first.code, 1)
      assert.equal(first.json.created.length, 1)
      assert.equal(first.json.errors[0].row, 2)
      assert.include(first.json.errors[0].error, 'price')
      const one = await Product.findByOrFail('slug', 'cli-import-one')
      assert.equal(one.priceCents, 2500)

      await writeFile(
        join(directory, 'update.json'),
        JSON.stringify([
          { slug: 'cli-import-one', productTitle: 'Imported One v2', price: 30, totalStock: 120 },
        ])
      )
      const second = await runCommand(['--json', 'products:import', join(directory, 'update.json')])
      assert.equal(second.code, 0, second.stderr)
      assert.equal(second.json.updated.length, 1)
      await one.refresh()
      assert.equal(one.title, 'Imported One v2')
      assert.equal(one.priceCents, 3000)

      const missing = await runCommand(['products:import', join(directory, 'nope.json')])
      assert.equal(missing.code, 2)
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })
})
