import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#accounts/models/user'
import {
  adminWithToken,
  customerWithToken,
  pendingOrder,
  placeHolds,
  TEST_CARDS,
} from '#tests/helpers'
import { runCommand } from '#tests/support/cli'
import { bouncerFor } from '#start/authorization'

/*
| Who may do what is written once, as policies (start/policies.ts): the console and the
| CLI's --as ask the accounts module's StaffPolicy, an order's card check and live channel ask the
| orders module's OrderPolicy. These tests go through the doors people use.
*/
test.group('Authorization: the policies behind every door', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test("another customer's card check is an order that does not exist", async ({
    client,
    assert,
  }) => {
    const owner = await pendingOrder({ card: TEST_CARDS.needsAuthentication })
    const report = await placeHolds()
    assert.equal(report.waiting, 1)
    await owner.order.refresh()
    const stranger = await customerWithToken()

    for (const step of ['authenticate', 'confirm']) {
      const response = await client
        .post(`/api/user/orders/${owner.order.publicId}/hold/${step}`)
        .bearerToken(stranger.token)
      response.assertStatus(404)
      response.assertBodyContains({ success: false, code: 'order_not_found' })
    }
    const anonymous = await client.post(`/api/user/orders/${owner.order.publicId}/hold/confirm`)
    anonymous.assertStatus(401)

    await owner.order.refresh()
    assert.equal(owner.order.holdStatus, 'requires_action')
    const own = await client
      .post(`/api/user/orders/${owner.order.publicId}/hold/authenticate`)
      .bearerToken(owner.token)
    own.assertStatus(200)
  })

  test('the policies answer the same outside HTTP: staff only for the console, own orders only', async ({
    assert,
  }) => {
    const { user: customer } = await customerWithToken()
    const { user: admin } = await adminWithToken()
    const { order } = await pendingOrder()

    assert.isTrue(await bouncerFor(admin).with('StaffPolicy').allows('useConsole'))
    assert.isFalse(await bouncerFor(customer).with('StaffPolicy').allows('useConsole'))
    assert.isFalse(await bouncerFor(null).with('StaffPolicy').allows('useConsole'))

    assert.isTrue(
      await bouncerFor(customer).with('OrderPolicy').allows('followUpdates', customer.uuid)
    )
    assert.isFalse(
      await bouncerFor(customer).with('OrderPolicy').allows('followUpdates', admin.uuid)
    )
    assert.isFalse(await bouncerFor(customer).with('OrderPolicy').allows('manage', order))
  })
})

test.group('Authorization: the CLI', () => {
  test("the CLI's --as takes staff only", async ({ assert }) => {
    // Committed, so the CLI's own process sees the account; removed afterwards.
    const { user } = await customerWithToken({ email: `as-customer-${Date.now()}@example.test` })
    try {
      const refused = await runCommand(['--as', user.email, 'cards:purge', '--dry-run'])
      assert.equal(refused.code, 2)
      assert.include(refused.stderr, `--as ${user.email}: no staff account has this e-mail address`)
      await User.query().where('id', user.id).update({ role: 'support' })
      const byRole = await runCommand(['--as', user.email, 'cards:purge', '--dry-run'])
      assert.equal(byRole.code, 2)
      assert.include(byRole.stderr, 'the role support does not allow this command')
      await User.query().where('id', user.id).update({ role: 'owner' })
      const accepted = await runCommand(['--as', user.email, 'cards:purge', '--dry-run'])
      assert.equal(accepted.code, 0, accepted.stderr)
    } finally {
      await User.query().where('id', user.id).delete()
    }
  })
})
