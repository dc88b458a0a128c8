import { test } from '@japa/runner'
import User from '#accounts/models/user'
import PromoCode from '#checkout/models/promo_code'
import AuditLog from '#core/models/audit_log'
import { runCli, runCommand } from '#tests/support/cli'
import { secondFactor } from '#accounts/services/second_factor'
import { DEMO_ADMIN_TOTP_SECRET } from '#database/seeders/demo_seeder'

test.group('CLI: accounts and promo codes', (group) => {
  group.each.teardown(async () => {
    await User.query().where('email', 'like', 'cli-%').delete()
    await PromoCode.query().where('code', 'like', 'CLI%').delete()
    await AuditLog.query().where('actor_label', 'like', 'cli:%').delete()
  })

  test('--help lists the commands and exits 0; an unknown command exits 2', async ({ assert }) => {
    const help = await runCli(['--help'])
    assert.equal(help.code, 0)
    assert.include(help.stdout, 'users:create-admin')
    assert.include(help.stdout, 'promo:create')
    const unknown = await runCli(['no-such-command'])
    assert.equal(unknown.code, 2)
    assert.include(unknown.stderr, "unknown command 'no-such-command'")
  })

  test('users:create-admin creates an admin who can log in', async ({ assert, client }) => {
    const result = await runCommand([
      '--json',
      'users:create-admin',
      'cli-ops@example.test',
      '--password',
      'cli-admin-pass',
    ])
    assert.equal(result.code, 0, result.stderr)
    assert.containsSubset(result.json, {
      success: true,
      created: true,
      email: 'cli-ops@example.test',
    })
    const login = await client
      .post('/login')
      .json({ email: 'cli-ops@example.test', password: 'cli-admin-pass' })
    login.assertStatus(200)
    assert.equal(login.body().user.role, 'owner')

    const short = await runCommand([
      'users:create-admin',
      'cli-x@example.test',
      '--password',
      'short',
    ])
    assert.equal(short.code, 2)
    assert.include(short.stderr, 'Password must be at least 8 characters.')

    // An existing account: --password replaces its password and signs its sessions out.
    const oldToken = login.body().token
    const reset = await runCommand([
      '--json',
      'users:create-admin',
      'cli-ops@example.test',
      '--password',
      'cli-new-admin-pass',
    ])
    assert.equal(reset.code, 0, reset.stderr)
    assert.containsSubset(reset.json, { created: false, passwordSet: true })
    const oldLogin = await client
      .post('/login')
      .json({ email: 'cli-ops@example.test', password: 'cli-admin-pass' })
    assert.notEqual(oldLogin.status(), 200)
    const newLogin = await client
      .post('/login')
      .json({ email: 'cli-ops@example.test', password: 'cli-new-admin-pass' })
    newLogin.assertStatus(200)
    const info = await client.get('/api/user/info').bearerToken(oldToken)
    info.assertStatus(401)
    const audits = await AuditLog.query()
      .whereIn('action', ['admin.create', 'admin.promote'])
      .where('subject_id', newLogin.body().user.uuid)
      .orderBy('id', 'asc')
    assert.deepEqual(
      audits.map((audit) => audit.action),
      ['admin.create', 'admin.promote']
    )
    assert.match(audits[1].actorLabel ?? '', /^cli:/)
    assert.notInclude(JSON.stringify(audits.map((audit) => audit.meta)), 'cli-new-admin-pass')
  })

  test('a new admin must add an authenticator; users:reset-factors is the way back, audited', async ({
    assert,
    client,
  }) => {
    const created = await runCommand([
      'users:create-admin',
      'cli-factor@example.test',
      '--password',
      'cli-admin-pass',
    ])
    assert.equal(created.code, 0, created.stderr)
    assert.include(created.stdout, 'Second factor: none yet')
    const user = await User.findByOrFail('email', 'cli-factor@example.test')
    await secondFactor.enrolKnownSecret(user.id, DEMO_ADMIN_TOTP_SECRET)
    const login = await client
      .post('/login')
      .json({ email: 'cli-factor@example.test', password: 'cli-admin-pass' })
    assert.equal(login.body().secondFactor, 'required')

    const noReason = await runCommand(['users:reset-factors', 'cli-factor@example.test'])
    assert.equal(noReason.code, 2)
    const unknown = await runCommand([
      'users:reset-factors',
      'cli-nobody@example.test',
      '--reason',
      'x y z',
    ])
    assert.equal(unknown.code, 2)
    assert.include(unknown.stderr, 'No account has the e-mail')
    const reset = await runCommand([
      'users:reset-factors',
      'cli-factor@example.test',
      '--reason',
      'phone lost, ticket 481',
    ])
    assert.equal(reset.code, 0, reset.stderr)
    const signedOut = await client.post('/api/session/totp/enrol').bearerToken(login.body().token)
    signedOut.assertStatus(401)
    const again = await client
      .post('/login')
      .json({ email: 'cli-factor@example.test', password: 'cli-admin-pass' })
    assert.equal(again.body().secondFactor, 'enrol')
    const audit = await AuditLog.query().where('action', 'factor.reset').firstOrFail()
    assert.equal(audit.reason, 'phone lost, ticket 481')
    assert.match(audit.actorLabel ?? '', /^cli:/)
  })

  test('promo:create makes a usable code; bad input exits 2, a duplicate exits 1', async ({
    assert,
    client,
  }) => {
    const created = await runCommand(['--json', 'promo:create', 'cli25', '25', '--max-uses', '10'])
    assert.equal(created.code, 0, created.stderr)
    assert.containsSubset(created.json.promo, { code: 'CLI25', percent: 25, maxUses: 10 })
    const lookup = await client.get('/api/promoLookup').qs({ promoCode: 'CLI25' })
    lookup.assertBody({ success: true, code: 'CLI25', percent: 25 })
    const audit = await AuditLog.query().where('action', 'promo.create').firstOrFail()
    assert.equal(audit.meta?.promoCode, 'CLI25')

    const badPercent = await runCommand(['promo:create', 'CLIBAD', '150'])
    assert.equal(badPercent.code, 2)
    const badNumber = await runCommand(['promo:create', 'CLIBAD', 'ten'])
    assert.equal(badNumber.code, 2)
    assert.include(badNumber.stderr, 'percent must be a whole number')

    const duplicate = await runCommand(['promo:create', 'CLI25', '10'])
    assert.equal(duplicate.code, 1)
    assert.include(duplicate.stderr, 'Promo code CLI25 already exists.')

    // The same rule, in the same words, as the console's form.
    const backwards = await runCommand([
      'promo:create',
      'CLIWINDOW',
      '10',
      '--starts',
      '2030-01-02',
      '--expires',
      '2030-01-01',
    ])
    assert.equal(backwards.code, 1)
    assert.include(backwards.stderr, 'The expiry must be after the start.')
  })
})
