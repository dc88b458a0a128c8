import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import User from '#accounts/models/user'
import Order from '#orders/models/order'
import AuditLog from '#core/models/audit_log'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { cardVault } from '#core/services/card_vault'
import { orderSettlement } from '#payments/services/order_settlement'
import { releasedProductWithOrders } from '#tests/support/release'
import { customerWithCard, pendingOrder, profileFor } from '#tests/helpers'

const PASSWORD = 'correct-horse-battery'

async function count(table: string, column: string, value: unknown) {
  const rows = await db
    .from(table)
    .where(column, value as any)
    .count('* as total')
  return Number(rows[0].total)
}

test.group('Deleting an account', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a wrong password is refused and nothing is deleted', async ({ client, assert }) => {
    const { user, token } = await customerWithCard()
    await profileFor(user)
    const response = await client
      .post('/api/user/delete')
      .bearerToken(token)
      .json({ password: 'not-my-password' })
    response.assertStatus(422)
    assert.equal(response.body().code, 'wrong_password')
    assert.equal(response.body().error, 'Your password is not correct.')
    assert.equal(await count('profiles', 'user_id', user.id), 1)
    const info = await client.get('/api/user/info').bearerToken(token)
    info.assertStatus(200)
  })

  test('an order still waiting for release day keeps the account', async ({ client, assert }) => {
    const customer = await pendingOrder()
    const response = await client
      .post('/api/user/delete')
      .bearerToken(customer.token)
      .json({ password: PASSWORD })
    response.assertStatus(409)
    assert.equal(response.body().code, 'active_orders')
    assert.include(response.body().error, 'You have slots waiting for release day')
    const user = await User.findOrFail(customer.user.id)
    assert.isNull(user.deletedAt)
    assert.isNotNull(user.gatewayCustomerId)
  })

  test('deletes the card data everywhere and keeps the order records', async ({
    client,
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1)
    await orderSettlement.fail(orders[0], { reason: 'Retailer queue timed out.' })
    const user = await User.findOrFail(orders[0].userId)
    const formerEmail = user.email
    const customerId = user.gatewayCustomerId!
    const accessToken = await User.accessTokens.create(user)
    const token = accessToken.value!.release()
    assert.equal(await count('sandbox_customers', 'id', customerId), 1)

    const response = await client
      .post('/api/user/delete')
      .bearerToken(token)
      .json({ password: PASSWORD })
    response.assertStatus(200)

    assert.equal(await count('profiles', 'user_id', user.id), 0)
    assert.equal(await count('sandbox_customers', 'id', customerId), 0)
    assert.equal(await count('sandbox_payment_methods', 'customer_id', customerId), 0)
    const entry = await PaymentLedgerEntry.query()
      .where('kind', 'customer_delete')
      .where('user_id', user.id)
      .firstOrFail()
    assert.equal(entry.status, 'succeeded')

    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'fail')
    const snapshot = cardVault.open<{ card: Record<string, string> }>(order.acoVault!)
    assert.notProperty(snapshot.card, 'number')
    assert.notProperty(snapshot.card, 'code')

    await user.refresh()
    assert.isNotNull(user.deletedAt)
    assert.notEqual(user.email, formerEmail)
    assert.isNull(user.cardLast4)

    const after = await client.get('/api/user/info').bearerToken(token)
    after.assertStatus(401)
    const login = await client.post('/login').json({ email: formerEmail, password: PASSWORD })
    assert.oneOf(login.status(), [400, 401, 422])

    const audit = await AuditLog.query().where('action', 'customer.delete').firstOrFail()
    assert.equal(audit.subjectId, user.uuid)
    assert.notInclude(JSON.stringify(audit.meta), formerEmail)

    const again = await client.post('/register').json({
      email: formerEmail,
      phone: '555-123-4567',
      password: 'a-new-password-1',
      name: 'Back Again',
      firstName: 'Back',
      lastName: 'Again',
    })
    again.assertStatus(201)
  })
})
