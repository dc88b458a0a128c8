import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import Product from '#catalog/models/product'
import { orderNumber } from '#orders/services/order_numbers'
import { adminWithToken, pendingOrder, placeHolds } from '#tests/helpers'
import { makeOrder } from './fixtures.js'

const NOT_FOUND =
  /^Order DS-[0-9A-Z]{6,8} not found: give its DS- number \(DS-7K3Q9X\) or its id \(UUID\)\.$/

/** A confirmation number no order of the test database has (ids stay far below it). */
const unknownNumber = () => orderNumber(2 ** 30 - 1)

test.group('Admin orders by their DS- number', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('GET /api/admin/orders/DS-… answers the same order as its UUID, in any case', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const order = await makeOrder({ status: 'success' })
    const number = orderNumber(order.id)

    const byId = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    byId.assertStatus(200)
    assert.equal(byId.body().orderNumber, number)
    for (const spelling of [number, number.toLowerCase(), order.publicId.toUpperCase()]) {
      const response = await client.get(`/api/admin/orders/${spelling}`).bearerToken(token)
      response.assertStatus(200)
      assert.deepEqual(response.body(), byId.body(), spelling)
    }
  })

  test('actions take the DS- number: mark, and the spec call that cancels', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const { order: toMark, product } = await pendingOrder()
    const { order: toCancel } = await pendingOrder()
    await placeHolds()
    await Product.query()
      .where('id', product.id)
      .update({ release_at: DateTime.now().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })

    const marked = await client
      .post(`/api/admin/orders/${orderNumber(toMark.id).toLowerCase()}/mark`)
      .bearerToken(token)
      .json({ status: 'success', confirmationNumber: 'NK-501' })
    marked.assertStatus(200)
    assert.equal(marked.body().id, toMark.publicId)
    assert.equal(marked.body().status, 'success')
    await toMark.refresh()
    assert.equal(toMark.status, 'success')

    const cancelled = await client
      .delete(`/api/admin/orders/id/${orderNumber(toCancel.id)}`)
      .bearerToken(token)
      .json({ reason: 'Customer asked by phone' })
    cancelled.assertStatus(200)
    assert.isTrue(cancelled.body().success)
    assert.equal(cancelled.body().order.id, toCancel.publicId)
    assert.equal(cancelled.body().order.status, 'cancelled')
  })

  test('an unknown DS- number is a 404 that names what is taken; a malformed id a 404', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const unknown = await client.get(`/api/admin/orders/${unknownNumber()}`).bearerToken(token)
    unknown.assertStatus(404)
    assert.containsSubset(unknown.body(), { success: false, code: 'order_not_found' })
    assert.match(unknown.body().error, NOT_FOUND)

    const retry = await client
      .post(`/api/admin/orders/${unknownNumber().toLowerCase()}/retry`)
      .bearerToken(token)
      .json({ reason: 'Try again' })
    retry.assertStatus(404)
    assert.equal(retry.body().code, 'order_not_found')
    assert.match(retry.body().error, NOT_FOUND)

    // The longest number there is (eight characters) names an id far past any order's: a 404.
    const longest = await client
      .get(`/api/admin/orders/${orderNumber(2 ** 40 - 1)}`)
      .bearerToken(token)
    longest.assertStatus(404)
    assert.equal(longest.body().code, 'order_not_found')

    for (const malformed of [
      'DS-12345',
      'DS-7K3Q9XA',
      'DS-ILOUXX',
      'DS-',
      // Without its prefix a number is not taken in a URL: a static path could read the same.
      '7K3Q9X',
      'not-an-order',
      `DS-${'7'.repeat(5000)}`,
      `${'a'.repeat(8)}-0000-4000-8000-00000000000g`,
    ]) {
      const response = await client.get(`/api/admin/orders/${malformed}`).bearerToken(token)
      assert.equal(response.status(), 404, malformed.slice(0, 40))
      assert.isFalse(response.body().success)
      const action = await client
        .post(`/api/admin/orders/${malformed}/waive-fee`)
        .bearerToken(token)
        .json({ reason: 'Goodwill' })
      assert.equal(action.status(), 404, malformed.slice(0, 40))
    }
  })
})
