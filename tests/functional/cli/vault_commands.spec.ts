import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import AuditLog from '#core/models/audit_log'
import { CardVault, cardVault } from '#core/services/card_vault'
import { VaultRotation } from '#core/services/vault_rotation'
import { profileSealedColumns } from '#profiles/services/sealed_columns'
import { pingChannels } from '#notifications/services/ping_channels'
import { customerWithCard, productFor, profileFor, TEST_CARDS } from '#tests/helpers'
import { removeCommittedReleaseData, sandboxSnapshot } from '#tests/support/release'
import { cliEntry, cliEnv, runCli } from '#tests/support/cli'
import { withoutRandomIds } from '#tests/support/random_ids'

/*
| vault:rotate and vault:status run as the real `dropslot` binary on committed rows. Values are
| sealed under an `old` key (a vault whose first key is `old`), then rotated with
| VAULT_KEYS=<the suite's key>,old: afterwards this process, which holds only the suite's key,
| opens every one of them, as the app does once the old key has left VAULT_KEYS.
*/

const PREFIX = 'vaultcli-'
const OLD_HEX = randomBytes(32).toString('hex')
const CURRENT_KEYS = env.get('VAULT_KEYS')
const CURRENT_ID = CURRENT_KEYS.split(':')[0]
/** The rotation's VAULT_KEYS: the suite's key first (it seals), the old one still opens. */
const ROTATE_KEYS = `${CURRENT_KEYS},old:${OLD_HEX}`
const oldVault = new CardVault([{ id: 'old', key: Buffer.from(OLD_HEX, 'hex') }])
const bothKeys = new CardVault([
  { id: CURRENT_ID, key: Buffer.from(CURRENT_KEYS.split(':')[1].split(',')[0], 'hex') },
  { id: 'old', key: Buffer.from(OLD_HEX, 'hex') },
])

/** Mail rows with a sealed raw message each (plain text, no card data), sealed by `vault`. */
async function keptMail(count: number, vault: CardVault, tag = 'm') {
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
  const rows = Array.from({ length: count }, (_, index) => ({
    public_id: randomUUID(),
    message_key: `${PREFIX}${tag}-${index}`,
    sha256: '0'.repeat(64),
    door: 'file',
    kind: 'unknown',
    dkim: 'none',
    raw_sealed: vault.seal(Buffer.from(`message ${tag} ${index}`).toString('base64')),
    received_at: now,
    created_at: now,
  }))
  for (let start = 0; start < rows.length; start += 200) {
    await db.table('mail_messages').multiInsert(rows.slice(start, start + 200))
  }
}

async function keptMailRows(tag = 'm') {
  const rows: { message_key: string; raw_sealed: string }[] = await db
    .from('mail_messages')
    .where('message_key', 'like', `${PREFIX}${tag}-%`)
    .select('message_key', 'raw_sealed')
  return rows
}

const statusOf = (json: any, table: string) =>
  json.columns.find((column: any) => column.table === table)

/** A customer with a card, a profile and an order: their card and snapshot moved under `old`. */
async function customerUnderOldKey() {
  const { checkoutService } = await import('#checkout/services/checkout_service')
  const customer = await customerWithCard(TEST_CARDS.ok, { email: `${PREFIX}${Date.now()}@t.test` })
  const profile = await profileFor(customer.user)
  const product = await productFor({ totalStock: 10, stockTaken: 0 })
  const opened = await checkoutService.checkout(customer.user, {
    productId: product.id,
    style: 'Black',
    size: '9',
    profileId: profile.publicId,
  })
  await pingChannels.setDiscord(
    customer.user.id,
    'https://discord.com/api/webhooks/123456789012/abcdefghijklmnopqrstuvwxyz'
  )
  const sealed = {
    card: await db.from('profiles').where('id', profile.id).select('card_vault').firstOrFail(),
    snapshot: await db.from('orders').where('id', opened.id).select('aco_vault').firstOrFail(),
    webhook: await db
      .from('ping_settings')
      .where('user_id', customer.user.id)
      .select('discord_webhook_vault')
      .firstOrFail(),
  }
  // A staff TOTP secret is sealed by the vault too (written here as the enrolment writes it).
  const totpSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
  await db
    .from('users')
    .where('id', customer.user.id)
    .update({ totp_secret_sealed: oldVault.seal(totpSecret) })
  const before = {
    totp: totpSecret,
    card: cardVault.open(sealed.card.card_vault),
    snapshot: cardVault.open(sealed.snapshot.aco_vault),
    webhook: cardVault.open(sealed.webhook.discord_webhook_vault),
  }
  await db
    .from('profiles')
    .where('id', profile.id)
    .update({ card_vault: oldVault.seal(before.card) })
  await db
    .from('orders')
    .where('id', opened.id)
    .update({ aco_vault: oldVault.seal(before.snapshot) })
  await db
    .from('ping_settings')
    .where('user_id', customer.user.id)
    .update({ discord_webhook_vault: oldVault.seal(before.webhook) })
  return { ...customer, profile, orderId: opened.id, before }
}

/** No card number, security code or sealed value in what an operator sees. */
function assertNothingSecret(assert: any, ...outputs: string[]) {
  for (const output of outputs.map(withoutRandomIds)) {
    assert.notInclude(output, '4242')
    assert.notInclude(output, 'JBSWY3DP')
    assert.notMatch(output, /(?:old|t1):[A-Za-z0-9+/]{16}/)
  }
}

test.group('CLI: vault:rotate and vault:status', (group) => {
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await db.from('mail_messages').where('message_key', 'like', `${PREFIX}%`).delete()
    await removeCommittedReleaseData(PREFIX)
    await AuditLog.query().where('action', 'vault.rotate').delete()
    await restoreSandbox()
  })

  test('rotates every sealed column to the first key; the app works with the old key removed', async ({
    assert,
  }) => {
    const customer = await customerUnderOldKey()
    await keptMail(3, oldVault)

    const before = await runCli(['--json', 'vault:status'], { VAULT_KEYS: ROTATE_KEYS })
    assert.equal(before.code, 0, before.stderr)
    assert.equal(before.json.currentKey, CURRENT_ID)
    for (const [table, count] of [
      ['profiles', 1],
      ['orders', 1],
      ['mail_messages', 3],
      ['ping_settings', 1],
      ['users', 1],
    ] as const) {
      assert.equal(statusOf(before.json, table).byKey.old, count, table)
    }
    assert.equal(before.json.underOlderKeys, 7)
    assert.deepEqual(before.json.removableKeys, [])

    const rotate = await runCli(['--json', 'vault:rotate', '--batch', '2'], {
      VAULT_KEYS: ROTATE_KEYS,
    })
    assert.equal(rotate.code, 0, rotate.stderr)
    assert.equal(statusOf(rotate.json, 'profiles').rotated, 1)
    assert.equal(statusOf(rotate.json, 'orders').rotated, 1)
    assert.equal(statusOf(rotate.json, 'mail_messages').rotated, 3)
    assert.equal(statusOf(rotate.json, 'ping_settings').rotated, 1)
    assert.equal(statusOf(rotate.json, 'users').rotated, 1)
    assertNothingSecret(assert, rotate.stdout, rotate.stderr)

    const after = await runCli(['vault:status'], { VAULT_KEYS: ROTATE_KEYS })
    assert.equal(after.code, 0, after.stderr)
    assert.include(
      after.stdout,
      `No value is under an older key: all that VAULT_KEYS opens is under ${CURRENT_ID}.`
    )
    assert.include(after.stdout, 'Can be removed from VAULT_KEYS: old.')
    const afterJson = await runCli(['--json', 'vault:status'], { VAULT_KEYS: ROTATE_KEYS })
    for (const column of afterJson.json.columns) assert.equal(column.byKey.old, 0, column.table)

    // This process holds only the suite's key: every value opens to what it was.
    const profile = await db.from('profiles').where('id', customer.profile.id).first()
    const order = await db.from('orders').where('id', customer.orderId).first()
    const ping = await db.from('ping_settings').where('user_id', customer.user.id).first()
    assert.deepEqual(cardVault.open(profile.card_vault), customer.before.card)
    assert.deepEqual(cardVault.open(order.aco_vault), customer.before.snapshot)
    assert.deepEqual(cardVault.open(ping.discord_webhook_vault), customer.before.webhook)
    const user = await db.from('users').where('id', customer.user.id).first()
    assert.equal(cardVault.open(user.totp_secret_sealed), customer.before.totp)
    for (const row of await keptMailRows()) {
      const index = row.message_key.split('-').pop()
      assert.equal(
        Buffer.from(cardVault.open<string>(row.raw_sealed), 'base64').toString(),
        `message m ${index}`
      )
    }
    // ...and a checkout, which opens the rotated card, works without the old key.
    const { checkoutService } = await import('#checkout/services/checkout_service')
    const product = await productFor({ totalStock: 10, stockTaken: 0 })
    const opened = await checkoutService.checkout(customer.user, {
      productId: product.id,
      style: 'Black',
      size: '9',
      profileId: customer.profile.publicId,
    })
    assert.isOk(opened.id)

    // A run with the old key gone finds nothing it cannot open; the runs are audited, counts only.
    const again = await runCli(['--json', 'vault:rotate'])
    assert.equal(again.code, 0, again.stderr)
    assert.equal(statusOf(again.json, 'profiles').rotated, 0)
    const audits = await AuditLog.query().where('action', 'vault.rotate').orderBy('id', 'asc')
    assert.lengthOf(audits, 2)
    assert.match(audits[0].actorLabel ?? '', /^cli:/)
    const meta = audits[0].meta as any
    assert.equal(meta.columns.find((column: any) => column.table === 'mail_messages').rotated, 3)
    assertNothingSecret(assert, JSON.stringify(audits.map((audit) => audit.meta)))
  }).timeout(180_000)

  test('a run killed with SIGKILL half-way is finished by the next run; nothing lost or sealed twice', async ({
    assert,
  }) => {
    await keptMail(1500, oldVault)
    const child = spawn(process.execPath, [await cliEntry(), 'vault:rotate', '--batch', '10'], {
      env: cliEnv({ VAULT_KEYS: ROTATE_KEYS }),
    })
    let stderr = ''
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(signal ?? code))
    )
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      if (/mail_messages\.raw_sealed: batch \d+ done/.test(stderr)) child.kill('SIGKILL')
    })
    assert.equal(await exited, 'SIGKILL', stderr)

    const halfway = await runCli(['--json', 'vault:status'], { VAULT_KEYS: ROTATE_KEYS })
    const left = statusOf(halfway.json, 'mail_messages').byKey.old
    assert.isAbove(left, 0, 'the run was killed before it was done')
    assert.isBelow(left, 1500, 'the killed run had rotated its first batch')

    const resumed = await runCli(['--json', 'vault:rotate', '--batch', '10'], {
      VAULT_KEYS: ROTATE_KEYS,
    })
    assert.equal(resumed.code, 0, resumed.stderr)
    const mail = statusOf(resumed.json, 'mail_messages')
    assert.equal(mail.rotated, left)
    assert.isAtLeast(mail.current, 1500 - left)
    assert.equal(mail.changed + mail.unknownKey + mail.unreadable, 0)

    const rows = await keptMailRows()
    assert.lengthOf(rows, 1500)
    for (const row of rows) {
      assert.isTrue(row.raw_sealed.startsWith(`${CURRENT_ID}:`), row.message_key)
      const index = row.message_key.split('-').pop()
      const plain = Buffer.from(cardVault.open<string>(row.raw_sealed), 'base64').toString()
      assert.equal(plain, `message m ${index}`)
    }
  }).timeout(240_000)

  test('a value under a key VAULT_KEYS no longer holds is counted, reported, and fails the run', async ({
    assert,
  }) => {
    const gone = new CardVault([{ id: 'gone', key: randomBytes(32) }])
    await keptMail(1, gone, 'g')
    await keptMail(4, oldVault)

    const status = await runCli(['--json', 'vault:status'], { VAULT_KEYS: ROTATE_KEYS })
    assert.equal(statusOf(status.json, 'mail_messages').unknownKey, 1)
    assert.deepEqual(statusOf(status.json, 'mail_messages').unknownKeyIds, ['gone'])

    const text = await runCli(['vault:rotate', '--batch', '2'], { VAULT_KEYS: ROTATE_KEYS })
    assert.equal(text.code, 1)
    assert.include(
      text.stderr,
      '1 value under a key VAULT_KEYS does not hold (gone) cannot be opened'
    )
    const json = await runCli(['--json', 'vault:rotate'], { VAULT_KEYS: ROTATE_KEYS })
    assert.equal(json.code, 1)
    assert.equal(json.json.success, false)
    assert.deepEqual(json.json.unknownKeyIds, ['gone'])
    assert.equal(statusOf(json.json, 'mail_messages').unknownKey, 1)
    // The other rows were rotated all the same; the unknown one is left as it was.
    for (const row of await keptMailRows())
      assert.isTrue(row.raw_sealed.startsWith(`${CURRENT_ID}:`))
    const [unknown] = await keptMailRows('g')
    assert.isTrue(unknown.raw_sealed.startsWith('gone:'))
    const audit = await AuditLog.query().where('action', 'vault.rotate').firstOrFail()
    assert.deepEqual((audit.meta as any).unknownKeyIds, ['gone'])
  }).timeout(180_000)

  test('a value changed by another writer between the read and the write is kept', async ({
    assert,
  }) => {
    const customer = await customerUnderOldKey()
    const written = cardVault.seal({
      ...(customer.before.card as Record<string, unknown>),
      name: 'Changed Meanwhile',
    })
    const [profiles] = profileSealedColumns
    const racing = {
      ...profiles,
      async replace(key: number | string, current: string, next: string) {
        // The app saves the profile after the rotation read it, before it writes.
        if (key === customer.profile.id) {
          await db.from('profiles').where('id', key).update({ card_vault: written })
        }
        return profiles.replace(key, current, next)
      },
    }
    const report = await new VaultRotation(bothKeys).rotate([racing], { batch: 50 })
    assert.equal(report.columns[0].changed, 1)
    assert.equal(report.columns[0].rotated, 0)
    const row = await db.from('profiles').where('id', customer.profile.id).first()
    assert.equal(row.card_vault, written)
  })
})
