import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { ProductFactory } from '#database/factories/product_factory'

test.group('Catalog', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('lists available products with the spec fields in camelCase', async ({ client, assert }) => {
    const product = await ProductFactory.merge({ title: 'Visible Drop', priceCents: 4550 }).create()
    await ProductFactory.merge({ title: 'Hidden Drop', avail: false }).create()

    const response = await client.get('/api/products')
    response.assertStatus(200)
    const titles = response.body().map((item: { productTitle: string }) => item.productTitle)
    assert.include(titles, 'Visible Drop')
    assert.notInclude(titles, 'Hidden Drop')

    const item = response
      .body()
      .find((entry: { productId: number }) => entry.productId === product.id)
    assert.containsSubset(item, {
      productId: product.id,
      productTitle: 'Visible Drop',
      price: 45.5,
      priceCents: 4550,
      sizeType: 'shoe',
      styles: 'Black,White',
      tags: 'nike',
      avail: true,
      totalStock: 50,
      stockTaken: 0,
    })
    assert.include(item.sizes, '9.5')
  })

  test('shows one product, 404 for unknown or unavailable ones', async ({ client }) => {
    const product = await ProductFactory.create()
    const hidden = await ProductFactory.merge({ avail: false }).create()
    const response = await client.get(`/api/products/${product.id}`)
    response.assertStatus(200)
    response.assertBodyContains({ productId: product.id })
    for (const id of [hidden.id, 999999, 'abc']) {
      const missing = await client.get(`/api/products/${id}`)
      missing.assertStatus(404)
      missing.assertBodyContains({ success: false, code: 'product_not_found' })
    }
  })

  test('only a plain decimal id names a product: no hex, exponent or leading zeros', async ({
    client,
  }) => {
    const product = await ProductFactory.create()
    const id = product.id
    for (const spelling of [
      `0x${id.toString(16)}`,
      String(id).padStart(22, '0'),
      `0${id}`,
      `${id}e0`,
      `${id}.0`,
      ` ${id}`,
      `+${id}`,
    ]) {
      const response = await client.get(`/api/products/${encodeURIComponent(spelling)}`)
      response.assertStatus(404)
      response.assertBodyContains({ success: false, code: 'product_not_found' })
    }
    const plain = await client.get(`/api/products/${id}`)
    plain.assertStatus(200)
  })
})
