import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import AuditLog from '#core/models/audit_log'
import Product from '#catalog/models/product'
import { adminWithToken, customerWithToken } from '#tests/helpers'
import { ProductFactory } from '#database/factories/product_factory'
import { makeOrder, productBody } from './fixtures.js'

test.group('Admin products', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('create through the REST resource; the shop lists it', async ({ client, assert }) => {
    const { token, user } = await adminWithToken()
    const response = await client.post('/api/admin/products').bearerToken(token).json(productBody())
    response.assertStatus(201)
    const product = response.body()
    assert.isNumber(product.id)
    assert.equal(product.productId, product.id)
    assert.equal(product.priceCents, 2500)
    assert.deepEqual(product.sizes, ['8', '8.5', '9', '10'])
    assert.equal(product.styles, 'Waves / Noise Aqua,Monarch')
    assert.equal(product.tags, 'nike')
    assert.equal(product.stockTaken, 0)
    assert.equal(product.slug, 'air-max-1-patta')

    const shop = await client.get('/api/products')
    assert.include(
      shop.body().map((row: { productId: number }) => row.productId),
      product.id
    )

    const audit = await AuditLog.query().where('action', 'product.create').firstOrFail()
    assert.equal(audit.actorUserId, user.id)
    assert.equal(audit.subjectId, String(product.id))
  })

  test("the spec's create call answers { success, product }", async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const response = await client.post('/api/admin/products/create').bearerToken(token).json({
      productTitle: 'Sample Tee',
      productImage: '/images/products/tee.svg',
      price: 50,
      sizeType: 'clothing',
      sizes: 'XS,S,M,L,XL',
      styles: 'OS',
      tags: 'adidas',
      avail: true,
      totalStock: 500,
      stockTaken: 7,
    })
    response.assertStatus(200)
    assert.isTrue(response.body().success)
    assert.equal(response.body().product.stockTaken, 7)
    assert.deepEqual(response.body().product.sizes, ['XS', 'S', 'M', 'L', 'XL'])
  })

  test('sizes must fit the size type', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ sizeType: 'shoe', sizes: ['9', '14.5'] }, /14\.5 is not a size.*4 to 14 in half steps/],
      [{ sizeType: 'shoe', sizes: ['3.5'] }, /3\.5 is not a size/],
      [{ sizeType: 'shoe', sizes: ['M'] }, /M is not a size/],
      [{ sizeType: 'clothing', sizes: ['S', 'XXL'] }, /XXL is not a size.*XS, S, M, L and XL/],
      [{ sizeType: 'OS', sizes: ['M'] }, /only OS/],
      [{ sizeType: 'shoe', sizes: [] }, /at least one size/],
    ]
    for (const [overrides, message] of cases) {
      const response = await client
        .post('/api/admin/products')
        .bearerToken(token)
        .json(productBody(overrides))
      assert.equal(response.status(), 422, JSON.stringify(overrides))
      assert.match(response.body().errors.sizes, message)
    }
    assert.equal(
      await Product.query()
        .count('* as total')
        .then((r) => Number(r[0].$extras.total)),
      0
    )
  })

  test('sizes default to the whole range and are put in order', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const all = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ sizeType: 'OS', sizes: undefined }))
    assert.deepEqual(all.body().sizes, ['OS'])
    const shoes = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ sizes: ['10.0', '4', '9.5', '9.5'] }))
    assert.deepEqual(shoes.body().sizes, ['4', '9.5', '10'])
  })

  test('slots taken cannot exceed the total at creation', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const response = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ totalStock: 5, stockTaken: 6 }))
    response.assertStatus(422)
    assert.match(response.body().errors.stockTaken, /cannot be more than the total/)
  })

  test('total stock can never go below the slots taken', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.merge({ totalStock: 50, stockTaken: 30 }).create()
    const response = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ totalStock: 29, productTitle: 'Renamed' })
    response.assertStatus(422)
    assert.equal(
      response.body().errors.totalStock,
      'Total stock cannot be below the 30 slots already taken.'
    )
    await product.refresh()
    assert.equal(product.totalStock, 50)
    assert.notEqual(product.title, 'Renamed', 'nothing is half-written')

    const ok = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ totalStock: 30, stockTaken: 0 })
    ok.assertStatus(200)
    assert.equal(ok.body().totalStock, 30)
    assert.equal(ok.body().stockTaken, 30, 'slots taken only move through orders')
  })

  test('edit changes what is sent and records what changed', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.merge({ priceCents: 2500 }).create()
    const response = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ ...productBody(), price: 30.5, sizeType: 'clothing', sizes: ['S', 'M'] })
    response.assertStatus(200)
    assert.equal(response.body().priceCents, 3050)
    assert.deepEqual(response.body().sizes, ['S', 'M'])
    const audit = await AuditLog.query().where('action', 'product.update').firstOrFail()
    assert.deepEqual((audit.meta!.changed as any).priceCents, { from: 2500, to: 3050 })

    const switched = await client
      .put(`/api/admin/products/${product.id}`)
      .bearerToken(token)
      .json({ sizeType: 'OS' })
    assert.deepEqual(switched.body().sizes, ['OS'], 'a new size type without sizes takes its range')
  })

  test("the spec's edit call takes the id from the body", async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.create()
    const response = await client
      .post('/api/admin/products/edit')
      .bearerToken(token)
      .json({ productId: product.id, productTitle: 'Edited Title', avail: false })
    response.assertStatus(200)
    assert.isTrue(response.body().success)
    assert.equal(response.body().product.productTitle, 'Edited Title')
    assert.isFalse(response.body().product.avail)

    const missing = await client
      .post('/api/admin/products/edit')
      .bearerToken(token)
      .json({ productTitle: 'No id' })
    missing.assertStatus(422)
    assert.property(missing.body().errors, 'productId')
  })

  test('deleting a product with active orders is refused with a clear message', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.merge({ title: 'Busy Drop' }).create()
    await makeOrder({ product, status: 'pending' })
    await makeOrder({ product, status: 'success' })
    await makeOrder({ product, status: 'fail' })
    for (const url of [
      `/api/admin/products/${product.id}`,
      `/api/admin/products/id/${product.id}`,
    ]) {
      const response = await client.delete(url).bearerToken(token)
      response.assertStatus(409)
      assert.equal(response.body().code, 'product_has_active_orders')
      assert.match(response.body().error, /"Busy Drop" has 2 active orders/)
    }
    assert.isNotNull(await Product.find(product.id))
  })

  test('a product with only past orders is kept, and says why', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.create()
    await makeOrder({ product, status: 'fail' })
    const response = await client.delete(`/api/admin/products/${product.id}`).bearerToken(token)
    response.assertStatus(409)
    assert.equal(response.body().code, 'product_has_orders')
    assert.match(response.body().error, /Mark it unavailable/)
  })

  test('delete without orders works on both paths and is audited', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const [first, second] = await ProductFactory.createMany(2)
    const rest = await client.delete(`/api/admin/products/${first.id}`).bearerToken(token)
    rest.assertStatus(200)
    assert.equal(rest.body().id, first.id)
    const spec = await client.delete(`/api/admin/products/id/${second.id}`).bearerToken(token)
    spec.assertStatus(200)
    assert.isTrue(spec.body().success)
    assert.isNull(await Product.find(first.id))
    assert.isNull(await Product.find(second.id))
    const audits = await AuditLog.query().where('action', 'product.delete')
    assert.lengthOf(audits, 2)
  })

  test('list rows show active orders per product', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.create()
    await makeOrder({ product, status: 'pending' })
    await makeOrder({ product, status: 'cancelled' })
    const response = await client.get(`/api/admin/products/${product.id}`).bearerToken(token)
    assert.equal(response.body().activeOrders, 1)
  })

  test('customers cannot create products', async ({ client }) => {
    const { token } = await customerWithToken()
    const response = await client
      .post('/api/admin/products/create')
      .bearerToken(token)
      .json(productBody())
    response.assertStatus(403)
  })
  test('a form that sends empty dates clears them and saves (no invalid date is stored)', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const product = await ProductFactory.merge({ totalStock: 50, stockTaken: 30 }).create()
    const response = await client.put(`/api/admin/products/${product.id}`).bearerToken(token).json({
      totalStock: 40,
      releaseAt: null,
      entryOpensAt: null,
      entryClosesAt: null,
      queueOpensAt: null,
      queueMinutes: null,
      queueRatePerMinute: null,
    })
    response.assertStatus(200)
    await product.refresh()
    assert.equal(product.totalStock, 40)
    assert.isNull(product.releaseAt)
    assert.isNull(product.queueOpensAt)
  })
})
