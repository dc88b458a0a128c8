import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import Product from '#catalog/models/product'
import { productQueries } from '#catalog/services/product_queries'
import { importProducts } from '#catalog/services/product_import'
import DemoSeeder from '#database/seeders/demo_seeder'
import { adminWithToken } from '#tests/helpers'
import { productBody } from '../admin/fixtures.js'

/*
| A product's restock window (`restockUntil`) as the console writes it and the shop reads it.
| `products:import` is run through `importProducts`, what the command calls, in this process:
| the CLI tests' runner builds the app first.
*/

const RELEASE = DateTime.utc(2031, 5, 1, 15, 0)
const at = (hours: number) => RELEASE.plus({ hours }).toISO()!
const millisOf = (iso: string | null) => (iso === null ? null : DateTime.fromISO(iso).toMillis())

async function restockUntilOf(slug: string) {
  const product = await Product.findByOrFail('slug', slug)
  return product.restockUntil
}

async function countOf(table: string) {
  const [row] = await db.from(table).count('* as total')
  return Number(row.total)
}

test.group('Catalog: a product restock window', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('created with a window and read back by the console and the shop', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ releaseAt: RELEASE.toISO(), restockUntil: at(6) }))
    created.assertStatus(201)
    const id = created.body().id
    assert.equal(millisOf(created.body().restockUntil), RELEASE.plus({ hours: 6 }).toMillis())

    const shown = await client.get(`/api/admin/products/${id}`).bearerToken(token)
    assert.equal(shown.body().restockUntil, created.body().restockUntil)
    const page = await client.get(`/api/products/${id}`)
    page.assertStatus(200)
    assert.equal(millisOf(page.body().restockUntil), RELEASE.plus({ hours: 6 }).toMillis())
    const shop = await client.get('/api/products')
    const listed = shop.body().find((row: { productId: number }) => row.productId === id)
    assert.equal(listed.restockUntil, page.body().restockUntil)

    const record = await productQueries.find(id)
    assert.equal(record?.restockUntil?.toMillis(), RELEASE.plus({ hours: 6 }).toMillis())

    // The spec's create call and a product without a window.
    const bare = await client
      .post('/api/admin/products/create')
      .bearerToken(token)
      .json(productBody({ productTitle: 'No Window' }))
    bare.assertStatus(200)
    assert.isNull(bare.body().product.restockUntil)
    const barePage = await client.get(`/api/products/${bare.body().product.id}`)
    assert.isNull(barePage.body().restockUntil)
  })

  test('each refused window is a 422 naming restockUntil that writes nothing', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ releaseAt: null, restockUntil: at(6) }, /needs a release time/],
      [{ releaseAt: RELEASE.toISO(), restockUntil: at(0) }, /after the release time/],
      [{ releaseAt: RELEASE.toISO(), restockUntil: at(-1) }, /after the release time/],
      [{ releaseAt: RELEASE.toISO(), restockUntil: at(7 * 24 + 1) }, /at most 7 days/],
      [{ releaseAt: RELEASE.toISO(), restockUntil: 'tomorrow' }, /date and time/],
    ]
    for (const [fields, message] of cases) {
      const response = await client
        .post('/api/admin/products')
        .bearerToken(token)
        .json(productBody(fields))
      assert.equal(response.status(), 422, JSON.stringify(fields))
      assert.equal(response.body().code, 'validation_failed')
      assert.match(response.body().errors?.restockUntil ?? '', message, JSON.stringify(fields))
    }
    assert.equal(await countOf('products'), 0)

    // The same in an edit, and a release time moved past the window: the product is unchanged.
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ releaseAt: RELEASE.toISO(), restockUntil: at(6) }))
    const id = created.body().id
    const edits: Array<[Record<string, unknown>, RegExp]> = [
      ...cases.map(([fields, message]): [Record<string, unknown>, RegExp] => [fields, message]),
      [{ releaseAt: null }, /needs a release time/],
      [{ releaseAt: at(6) }, /after the release time/],
      [{ restockUntil: at(7 * 24 + 1) }, /at most 7 days/],
    ]
    for (const [fields, message] of edits) {
      const response = await client
        .put(`/api/admin/products/${id}`)
        .bearerToken(token)
        .json({ productTitle: 'Renamed', ...fields })
      assert.equal(response.status(), 422, JSON.stringify(fields))
      assert.match(response.body().errors?.restockUntil ?? '', message, JSON.stringify(fields))
    }
    const product = await Product.findOrFail(id)
    assert.equal(product.title, 'Air Max 1 Patta')
    assert.equal(product.releaseAt?.toMillis(), RELEASE.toMillis())
    assert.equal(product.restockUntil?.toMillis(), RELEASE.plus({ hours: 6 }).toMillis())
  })

  test('an edit moves the window, and null clears it', async ({ client, assert }) => {
    const { token } = await adminWithToken()
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ releaseAt: RELEASE.toISO() }))
    const id = created.body().id
    assert.isNull(created.body().restockUntil)

    // Exactly 7 days is allowed.
    const set = await client
      .put(`/api/admin/products/${id}`)
      .bearerToken(token)
      .json({ restockUntil: at(7 * 24) })
    set.assertStatus(200)
    assert.equal(millisOf(set.body().restockUntil), RELEASE.plus({ days: 7 }).toMillis())

    // A release time moved later keeps a window still after it.
    const moved = await client
      .post('/api/admin/products/edit')
      .bearerToken(token)
      .json({ productId: id, releaseAt: at(2) })
    moved.assertStatus(200)
    assert.equal(millisOf(moved.body().product.restockUntil), RELEASE.plus({ days: 7 }).toMillis())

    const cleared = await client
      .put(`/api/admin/products/${id}`)
      .bearerToken(token)
      .json({ restockUntil: null })
    cleared.assertStatus(200)
    assert.isNull(cleared.body().restockUntil)
    const stored = await Product.findOrFail(id)
    assert.isNull(stored.restockUntil)
    const page = await client.get(`/api/products/${id}`)
    assert.isNull(page.body().restockUntil)

    // With the window gone, the release time can be cleared too.
    const unscheduled = await client
      .put(`/api/admin/products/${id}`)
      .bearerToken(token)
      .json({ releaseAt: null })
    unscheduled.assertStatus(200)
  })

  test('products:import takes a restockUntil column', async ({ assert }) => {
    const directory = await mkdtemp(join(tmpdir(), 'dropslot-restock-'))
    try {
      const row = (slug: string, restockUntil?: string) => ({
        slug,
        productTitle: `Import ${slug}`,
        price: 25,
        totalStock: 100,
        releaseAt: RELEASE.toISO(),
        ...(restockUntil ? { restockUntil } : {}),
      })
      const json = join(directory, 'products.json')
      await writeFile(
        json,
        JSON.stringify([
          row('restock-json', at(6)),
          row('restock-late', at(8 * 24)),
          row('restock-none'),
        ])
      )
      const first = await importProducts(json, { label: 'test' })
      assert.deepEqual(
        first.created.map((entry) => entry.slug),
        ['restock-json', 'restock-none']
      )
      assert.deepEqual(
        first.errors.map((entry) => entry.row),
        [2]
      )
      assert.include(
        first.errors[0].error,
        'restockUntil: Restocks can be tried for at most 7 days'
      )
      const fromJson = await Product.findByOrFail('slug', 'restock-json')
      assert.equal(fromJson.restockUntil?.toMillis(), RELEASE.plus({ hours: 6 }).toMillis())
      assert.isNull(await restockUntilOf('restock-none'))
      assert.isNull(await Product.findBy('slug', 'restock-late'))

      // A CSV: an update moves the window; an empty cell leaves it as it is.
      const csv = join(directory, 'products.csv')
      await writeFile(
        csv,
        [
          'slug,productTitle,price,totalStock,restockUntil',
          `restock-json,Import restock-json,25,100,${at(12)}`,
          'restock-none,Import restock-none,25,100,',
          `restock-csv,Import restock-csv,25,100,${at(1)}`,
        ].join('\n')
      )
      const second = await importProducts(csv, { label: 'test' })
      assert.deepEqual(
        second.updated.map((entry) => entry.slug),
        ['restock-json', 'restock-none']
      )
      assert.equal(second.errors[0]?.row, 3)
      assert.include(
        second.errors[0]?.error,
        'restockUntil: A restock window needs a release time.'
      )
      await fromJson.refresh()
      assert.equal(fromJson.restockUntil?.toMillis(), RELEASE.plus({ hours: 12 }).toMillis())
      assert.isNull(await restockUntilOf('restock-none'))
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })

  test('the demo seed tries the Kith x New Balance collaboration for restocks until 6 hours after its New Balance drop', async ({
    assert,
  }) => {
    await new DemoSeeder(db.connection()).run()
    const product = await Product.findByOrFail('slug', 'kith-new-balance-990v6-daytona')
    assert.equal(
      product.restockUntil?.toMillis(),
      product.releaseAt!.plus({ hours: 30 }).toMillis(),
      'six hours after New Balance releases it, a day after Kith'
    )
    await new DemoSeeder(db.connection()).run()
    await product.refresh()
    assert.equal(
      product.restockUntil?.toMillis(),
      product.releaseAt!.plus({ hours: 30 }).toMillis()
    )
  }).timeout(60_000)
})
