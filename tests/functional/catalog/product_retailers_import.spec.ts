import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import AuditLog from '#core/models/audit_log'
import { runCommand } from '#tests/support/cli'

/*
| `products:import` takes `retailers` as the admin API does. The CLI commits in its own process,
| so these tests clean up their products (the retailers go with them) instead of rolling back.
*/

async function cleanUp() {
  await Product.query().where('slug', 'like', 'cli-retailers-%').delete()
  await AuditLog.query().where('actor_label', 'like', 'cli:%').delete()
}

async function listOf(slug: string) {
  const rows = await db
    .from('product_retailers')
    .join('products', 'products.id', 'product_retailers.product_id')
    .where('products.slug', slug)
    .orderBy('product_retailers.position')
    .select('product_retailers.retailer', 'product_retailers.price_cents')
  return rows.map((row) => [row.retailer, row.price_cents])
}

const product = (slug: string, retailers: unknown) => ({
  slug,
  productTitle: `Import ${slug}`,
  price: 25,
  totalStock: 100,
  retailers,
})

test.group('CLI: products:import with retailers', (group) => {
  let directory: string
  group.each.setup(async () => {
    await cleanUp()
    directory = await mkdtemp(join(tmpdir(), 'dropslot-retailers-'))
  })
  group.each.teardown(async () => {
    await cleanUp()
    await rm(directory, { recursive: true, force: true })
  })

  test('a JSON file: lists are checked row by row, good rows go in', async ({ assert }) => {
    const file = join(directory, 'products.json')
    await writeFile(
      file,
      JSON.stringify([
        product('cli-retailers-one', [
          { retailer: 'kith', priceCents: 23500, url: 'https://kith.com/products/one' },
          { retailer: 'newbalance', priceCents: 21999, releaseAt: '2031-05-02T15:00:00Z' },
        ]),
        product('cli-retailers-twice', [
          { retailer: 'kith', priceCents: 100 },
          { retailer: 'kith', priceCents: 200 },
        ]),
        product('cli-retailers-http', [
          { retailer: 'kith', priceCents: 100, url: 'http://kith.com/x' },
        ]),
        product('cli-retailers-none', []),
      ])
    )
    const result = await runCommand(['--json', 'products:import', file])
    assert.equal(result.code, 1, result.stderr)
    assert.deepEqual(
      result.json.created.map((row: { slug: string }) => row.slug),
      ['cli-retailers-one']
    )
    assert.deepEqual(
      result.json.errors.map((row: { row: number }) => row.row),
      [2, 3, 4]
    )
    assert.include(result.json.errors[0].error, 'retailers: Each retailer may be listed once.')
    assert.include(result.json.errors[1].error, 'retailers.0.url: Product URL must be an https://')
    assert.include(result.json.errors[2].error, 'retailers: List from 1 to 10 retailers.')

    assert.deepEqual(await listOf('cli-retailers-one'), [
      ['kith', 23500],
      ['newbalance', 21999],
    ])
    const one = await Product.findByOrFail('slug', 'cli-retailers-one')
    assert.equal(one.retailer, 'kith')
    const refused = await Product.query().whereIn('slug', [
      'cli-retailers-twice',
      'cli-retailers-http',
      'cli-retailers-none',
    ])
    assert.lengthOf(refused, 0)
  })

  test('a CSV file: the list as JSON in its cell, an update replaces it', async ({ assert }) => {
    const first = join(directory, 'first.json')
    await writeFile(
      first,
      JSON.stringify([product('cli-retailers-csv', [{ retailer: 'kith', priceCents: 23500 }])])
    )
    const created = await runCommand(['--json', 'products:import', first])
    assert.equal(created.code, 0, created.stderr)

    const csv = join(directory, 'products.csv')
    const cell = (value: unknown) => `"${JSON.stringify(value).replaceAll('"', '""')}"`
    await writeFile(
      csv,
      [
        'slug,productTitle,price,totalStock,retailer,retailers',
        `cli-retailers-csv,Import CSV,25,100,,${cell([
          { retailer: 'newbalance', priceCents: 20999 },
          { retailer: 'kith', priceCents: 23000 },
        ])}`,
        'cli-retailers-text,Import text,25,100,,kith',
        // The old way: the retailer alone.
        'cli-retailers-old,Import old,25,100,nike,',
      ].join('\n')
    )
    const result = await runCommand(['--json', 'products:import', csv])
    assert.equal(result.code, 1, result.stderr)
    assert.deepEqual(
      result.json.updated.map((row: { slug: string }) => row.slug),
      ['cli-retailers-csv']
    )
    assert.deepEqual(
      result.json.created.map((row: { slug: string }) => row.slug),
      ['cli-retailers-old']
    )
    assert.equal(result.json.errors[0].row, 2)
    assert.include(result.json.errors[0].error, 'retailers: Retailers must be a list.')

    assert.deepEqual(await listOf('cli-retailers-csv'), [
      ['newbalance', 20999],
      ['kith', 23000],
    ])
    assert.deepEqual(await listOf('cli-retailers-old'), [['nike', null]])
    assert.isNull(await Product.findBy('slug', 'cli-retailers-text'))
  })
})
