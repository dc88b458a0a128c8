import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import Profile from '#profiles/models/profile'
import AuditLog from '#core/models/audit_log'
import User from '#accounts/models/user'
import { cardVault } from '#core/services/card_vault'
import { cardCodeRetention } from '#profiles/services/card_code_retention'
import { orderSettlement } from '#payments/services/order_settlement'
import { adminOrderActions } from '#admin/services/admin_order_actions_service'
import { releasedProductWithOrders } from '#tests/support/release'
import { runCommand } from '#tests/support/cli'
import { sqlTime } from '#core/helpers/sql_time'
import {
  adminWithToken,
  customerWithCard,
  envelope,
  productFor,
  profileFor,
  profilePayload,
} from '#tests/helpers'

const later = () => DateTime.now().plus({ hours: 25 })

async function vaultedCard(profileId: string) {
  const profile = await Profile.findByOrFail('publicId', profileId)
  return cardVault.open<{ code: string; number: string }>(profile.cardVault)
}

/** The security code sealed in a profile's card ('' once deleted). */
async function profileCode(profileId: string) {
  const card = await vaultedCard(profileId)
  return card.code
}

async function snapshotCode(orderId: number) {
  const order = await Order.findOrFail(orderId)
  return cardVault.open<{ card: Record<string, string> }>(order.acoVault!).card.code
}

async function orderCount(userId: number) {
  const orders = await Order.query().where('user_id', userId)
  return orders.length
}

test.group('Card security code retention', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a profile with no active order loses its code after the retention', async ({
    assert,
    client,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const before = await client.get('/api/user/profiles').bearerToken(token)
    assert.isTrue(before.body()[0].card.codeKept)

    const early = await cardCodeRetention.purgeDue({ now: DateTime.now().plus({ hours: 23 }) })
    assert.notInclude(early.profileIds, profile.publicId)
    assert.equal(await profileCode(profile.publicId), '123')

    const due = await cardCodeRetention.purgeDue({ now: later() })
    assert.include(due.profileIds, profile.publicId)
    const card = await vaultedCard(profile.publicId)
    assert.equal(card.code, '')
    assert.equal(card.number, '4242424242424242')
    const after = await client.get('/api/user/profiles').bearerToken(token)
    assert.isFalse(after.body()[0].card.codeKept)
    // No value 123, as text or number (a random id may end in 123: only whole values count).
    assert.notMatch(after.text(), /[:[,]\s*"?123"?\s*[,}\]]/)
    const audit = await AuditLog.query().where('action', 'profile.card_code_purge').firstOrFail()
    assert.equal(audit.meta?.profiles, due.purged)
  })

  test('the background pass is audited when it deletes codes, an operator pass always', async ({
    assert,
  }) => {
    const audits = () => AuditLog.query().where('action', 'profile.card_code_purge')
    const earlier = await audits()
    const before = earlier.length
    // With a retention of ten years nothing is due: the background pass leaves no entry.
    const idle = await cardCodeRetention.purgeDue({ retentionHours: 87_600 })
    assert.equal(idle.purged, 0)
    assert.lengthOf(await audits(), before)

    const manual = await cardCodeRetention.purgeDue({
      retentionHours: 87_600,
      actor: { label: 'cli:operator@host' },
    })
    assert.equal(manual.purged, 0)
    const entries = await audits().orderBy('id', 'desc')
    assert.lengthOf(entries, before + 1)
    assert.equal(entries[0].actorLabel, 'cli:operator@host')
    assert.equal(entries[0].meta?.profiles, 0)
  })

  test('an active order or the choice to keep it keeps the code', async ({ assert, client }) => {
    const { orders } = await releasedProductWithOrders(1)
    const { user, token } = await customerWithCard()
    const added = await client
      .post('/api/user/profiles/add')
      .bearerToken(token)
      .json({ eProfile: envelope(profilePayload({ email: user.email, keepCardCode: true })) })
    assert.oneOf(added.status(), [200, 201])
    const kept = await Profile.findByOrFail('userId', user.id)
    assert.isTrue(kept.keepCardCode)

    const result = await cardCodeRetention.purgeDue({ now: later() })
    assert.notInclude(result.profileIds, orders[0].profileId)
    assert.notInclude(result.profileIds, kept.publicId)
    assert.equal(await profileCode(orders[0].profileId), '123')
    assert.equal(await profileCode(kept.publicId), '123')

    await orderSettlement.fail(orders[0], { reason: 'Retailer queue timed out.' })
    const afterFail = await cardCodeRetention.purgeDue({ now: later() })
    assert.include(afterFail.profileIds, orders[0].profileId)
    assert.equal(await profileCode(orders[0].profileId), '')
  })

  test('checkout with a profile whose code was deleted asks for it, then takes it', async ({
    assert,
    client,
  }) => {
    const { user, token } = await customerWithCard()
    const profile = await profileFor(user)
    const product = await productFor({ totalStock: 5, stockTaken: 0 })
    await cardCodeRetention.purgeDue({ now: later() })
    const body = { productId: product.id, style: 'Black', size: '9', profileId: profile.publicId }

    const asked = await client.post('/api/checkout/withprofile').bearerToken(token).json(body)
    asked.assertStatus(409)
    assert.equal(asked.body().code, 'card_code_required')
    assert.equal(
      asked.body().error,
      "Enter your card's security code to check out with this profile."
    )

    const wrong = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ ...body, eCardCode: envelope({ code: '12a' }) })
    wrong.assertStatus(422)
    assert.equal(wrong.body().code, 'invalid_card_code')
    assert.equal(await orderCount(user.id), 0)

    const taken = await client
      .post('/api/checkout/withprofile')
      .bearerToken(token)
      .json({ ...body, eCardCode: envelope({ code: '987' }) })
    taken.assertStatus(201)
    const order = await Order.findByOrFail('publicId', taken.body().order.orderId)
    assert.equal(await snapshotCode(order.id), '987')
    assert.equal(await profileCode(profile.publicId), '987')
    const profiles = await client.get('/api/user/profiles').bearerToken(token)
    assert.isTrue(profiles.body()[0].card.codeKept)
  })

  test('a failed order whose profile lost its code cannot be retried', async ({ assert }) => {
    const { orders } = await releasedProductWithOrders(1)
    await orderSettlement.fail(orders[0], { reason: 'Retailer queue timed out.' })
    await cardCodeRetention.purgeDue({ now: later() })
    const admin = await adminWithToken()
    await assert.rejects(
      () =>
        adminOrderActions.retry(
          orders[0].publicId,
          { reason: 'Trying again.' },
          { actor: { id: admin.user.id, email: admin.user.email }, ip: null }
        ),
      /no longer kept/
    )
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'fail')
  })
})

test.group('CLI: cards:purge', (group) => {
  group.each.teardown(async () => {
    await db.from('profiles').where('profile_name', 'CLI purge').delete()
    await User.query().where('email', 'like', 'cli-purge-%').delete()
  })

  test('--dry-run counts, a real run deletes and is audited with the operator', async ({
    assert,
  }) => {
    const { user } = await customerWithCard(undefined, { email: 'cli-purge-1@example.test' })
    const profile = await profileFor(user, { profileName: 'CLI purge' })
    await db
      .from('profiles')
      .where('id', profile.id)
      .update({ card_code_at: sqlTime(DateTime.now().minus({ hours: 48 })) })

    const dry = await runCommand(['--json', 'cards:purge', '--dry-run'])
    assert.equal(dry.code, 0, dry.stderr)
    assert.include(dry.json.profileIds, profile.publicId)
    assert.equal(await profileCode(profile.publicId), '123')

    const real = await runCommand(['cards:purge'])
    assert.equal(real.code, 0, real.stderr)
    assert.match(
      real.stdout,
      /Deleted the card security code of \d+ profile\(s\) \(retention 24 h\)/
    )
    assert.equal(await profileCode(profile.publicId), '')
    const audit = await AuditLog.query()
      .where('action', 'profile.card_code_purge')
      .orderBy('id', 'desc')
      .firstOrFail()
    assert.match(audit.actorLabel ?? '', /^cli:/)
    await AuditLog.query().where('id', audit.id).delete()
  })
})
