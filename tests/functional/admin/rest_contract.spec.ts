import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import testUtils from '@adonisjs/core/services/test_utils'
import { adminWithToken } from '#tests/helpers'
import { ProductFactory } from '#database/factories/product_factory'
import { makeOrder } from './fixtures.js'

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value))

test.group('Admin REST contract (ra-data-simple-rest)', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a list answers an array and a Content-Range with the total', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    await ProductFactory.createMany(30)
    const response = await client
      .get(`/api/admin/products?sort=${q(['id', 'ASC'])}&range=${q([0, 24])}&filter=${q({})}`)
      .bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.header('content-range'), 'products 0-24/30')
    assert.equal(response.header('x-total-count'), '30')
    assert.lengthOf(response.body(), 25)
    assert.properties(response.body()[0], ['id', 'productId', 'productTitle', 'stockTaken'])

    const last = await client
      .get(`/api/admin/products?sort=${q(['id', 'ASC'])}&range=${q([25, 49])}`)
      .bearerToken(token)
    assert.equal(last.header('content-range'), 'products 25-29/30')
    assert.lengthOf(last.body(), 5)
    const ids = [...response.body(), ...last.body()].map((row: { id: number }) => row.id)
    assert.lengthOf(new Set(ids), 30, 'pages never overlap')
  })

  test('sort orders by the asked field and direction', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    await ProductFactory.merge([
      { title: 'Bravo', priceCents: 3000 },
      { title: 'Alpha', priceCents: 1000 },
      { title: 'Charlie', priceCents: 2000 },
    ]).createMany(3)
    const byTitle = await client
      .get(`/api/admin/products?sort=${q(['productTitle', 'DESC'])}`)
      .bearerToken(token)
    assert.deepEqual(
      byTitle.body().map((row: { productTitle: string }) => row.productTitle),
      ['Charlie', 'Bravo', 'Alpha']
    )
    const byPrice = await client
      .get(`/api/admin/products?sort=${q(['price', 'asc'])}`)
      .bearerToken(token)
    assert.deepEqual(
      byPrice.body().map((row: { price: number }) => row.price),
      [10, 20, 30]
    )
  })

  test('filter and q narrow the list and the total', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    await ProductFactory.merge([
      { title: 'Kith Hoodie', tags: 'kith', sizeType: 'clothing', sizes: ['S', 'M'] },
      { title: 'Dunk Low', tags: 'nike' },
      { title: 'Dunk High', tags: 'nike', avail: false },
    ]).createMany(3)

    const search = await client
      .get(`/api/admin/products?filter=${q({ q: 'dunk' })}`)
      .bearerToken(token)
    assert.equal(search.header('content-range'), 'products 0-1/2')

    const combined = await client
      .get(`/api/admin/products?filter=${q({ q: 'DUNK', avail: true })}`)
      .bearerToken(token)
    assert.deepEqual(
      combined.body().map((row: { productTitle: string }) => row.productTitle),
      ['Dunk Low']
    )

    const byTag = await client
      .get(`/api/admin/products?filter=${q({ tags: 'kith', sizeType: 'clothing' })}`)
      .bearerToken(token)
    assert.equal(byTag.header('content-range'), 'products 0-0/1')
  })

  test('q treats % and _ literally', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    await ProductFactory.merge([{ title: '100% Cotton Tee' }, { title: 'Plain Tee' }]).createMany(2)
    const response = await client
      .get(`/api/admin/products?filter=${q({ q: '100%' })}`)
      .bearerToken(token)
    assert.lengthOf(response.body(), 1)
    const underscore = await client
      .get(`/api/admin/products?filter=${q({ q: '_' })}`)
      .bearerToken(token)
    assert.lengthOf(underscore.body(), 0)
  })

  test('getMany: filter by a list of ids without a range', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const products = await ProductFactory.createMany(4)
    const wanted = [products[0].id, products[2].id]
    const response = await client
      .get(`/api/admin/products?filter=${q({ id: wanted })}`)
      .bearerToken(token)
    response.assertStatus(200)
    assert.sameMembers(
      response.body().map((row: { id: number }) => row.id),
      wanted
    )
  })

  test('an empty page still says the total', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    await ProductFactory.createMany(2)
    const response = await client.get(`/api/admin/products?range=${q([10, 19])}`).bearerToken(token)
    response.assertStatus(200)
    assert.deepEqual(response.body(), [])
    assert.equal(response.header('content-range'), 'products */2')
  })

  test('orders filter by date range: a bare end date covers its whole day', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const day = DateTime.fromISO('2025-03-10T00:00:00')
    await makeOrder({ createdAt: day.set({ hour: 9 }) })
    await makeOrder({ createdAt: day.set({ hour: 23, minute: 30 }) })
    await makeOrder({ createdAt: day.plus({ days: 1 }).set({ hour: 1 }) })
    await makeOrder({ createdAt: day.minus({ days: 1 }).set({ hour: 23 }) })
    const response = await client
      .get(
        `/api/admin/orders?filter=${q({ orderDate_gte: '2025-03-10', orderDate_lte: '2025-03-10' })}`
      )
      .bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.header('content-range'), 'orders 0-1/2')
  })

  test('bad list parameters are a 400 that says what is wrong', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const cases: Array<[string, string, RegExp]> = [
      [`sort=${encodeURIComponent('[title')}`, 'sort', /must be JSON/],
      [`sort=${q(['password', 'ASC'])}`, 'sort', /cannot be sorted by "password"/],
      [`sort=${q(['id', 'SIDEWAYS'])}`, 'sort', /ASC or DESC/],
      [`range=${q([10, 2])}`, 'range', /start <= end/],
      [`range=${q([-1, 5])}`, 'range', /whole numbers/],
      [`range=${q('0-24')}`, 'range', /range must be/],
      [`filter=${q(['x'])}`, 'filter', /JSON object/],
      [`filter=${q({ secret: 1 })}`, 'filter', /cannot be filtered by "secret"/],
      [`filter=${q({ avail: 'maybe' })}`, 'filter', /true or false/],
      [`filter=${q({ releaseAt_gte: 'yesterday' })}`, 'filter', /date like/],
      [`filter=${q({ id: [1, 'x'] })}`, 'filter', /whole number/],
    ]
    for (const [query, field, message] of cases) {
      const response = await client.get(`/api/admin/products?${query}`).bearerToken(token)
      assert.equal(response.status(), 400, query)
      assert.equal(response.body().success, false)
      assert.equal(response.body().code, 'invalid_query')
      assert.match(response.body().errors[field], message, query)
    }
  })

  test('a range larger than the cap is trimmed and the header tells the truth', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    await ProductFactory.createMany(3)
    const response = await client
      .get(`/api/admin/products?range=${q([0, 999999])}`)
      .bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.header('content-range'), 'products 0-2/3')
  })

  test('validation errors come as field messages with 422', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const response = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json({ productTitle: '', price: 'free', totalStock: -1 })
    response.assertStatus(422)
    const body = response.body()
    assert.equal(body.success, false)
    assert.equal(body.code, 'validation_failed')
    assert.isString(body.error)
    assert.properties(body.errors, ['productTitle', 'price', 'totalStock'])
  })

  test('unknown ids are 404 envelopes', async ({ client }) => {
    const { token } = await adminWithToken()
    for (const url of [
      '/api/admin/products/999999',
      '/api/admin/orders/00000000-0000-4000-8000-000000000000',
      '/api/admin/customers/00000000-0000-4000-8000-000000000000',
      '/api/admin/promo-codes/999999',
      '/api/admin/subscribers/999999',
      '/api/admin/emails/999999',
      '/api/admin/audit-log/999999',
    ]) {
      const response = await client.get(url).bearerToken(token)
      response.assertStatus(404)
      response.assertBodyContains({ success: false })
    }
  })
})
