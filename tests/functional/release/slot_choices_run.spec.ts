import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { twoRetailerProduct } from '#tests/support/release'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import { sqlTime } from '#core/helpers/sql_time'
import { checkoutService } from '#checkout/services/checkout_service'
import { FilesEngine } from '#release/services/checkout_engines'
import { releaseRunner } from '#release/services/release_runner'
import { customerWithCard, placeHolds, profileFor } from '#tests/helpers'

async function slot(productId: number, choices: Record<string, unknown>) {
  const customer = await customerWithCard()
  const profile = await profileFor(customer.user)
  return checkoutService.checkout(customer.user, {
    productId,
    style: 'Black',
    size: '10',
    profileId: profile.publicId,
    ...choices,
  })
}

test.group('Release run: the buyer ladder, retailers and cap reach the bot', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('each task carries the ladder in order and the first accepted retailer within the cap; an order above its cap is never sent and costs nothing', async ({
    assert,
  }) => {
    const product = await twoRetailerProduct()
    const ladder = await slot(product.id, {
      sizes: ['10', '10.5', '9.5'],
      retailers: ['newbalance', 'kith'],
      maxItemPriceCents: 25_000,
    })
    const cheaper = await slot(product.id, { maxItemPriceCents: 22_000 })
    const kithOnly = await slot(product.id, { retailers: ['kith'], maxItemPriceCents: 24_000 })
    await placeHolds()
    // Kith's price rises above the third buyer's cap before the drop.
    await db
      .from('product_retailers')
      .where('product_id', product.id)
      .where('retailer', 'kith')
      .update({ price_cents: 26_000 })
    await db
      .from('products')
      .where('id', product.id)
      .update({ release_at: sqlTime(DateTime.now().minus({ minutes: 1 }).toJSDate()) })

    const directory = await mkdtemp(join(tmpdir(), 'dropslot-ladder-tasks-'))
    try {
      const report = await releaseRunner.run({
        productId: product.id,
        engine: new FilesEngine(directory),
      })
      assert.equal(report.awaitingResult, 2, JSON.stringify(report))
      assert.equal(report.failed, 1)

      // Kith ($260 now) is above both caps: each order is tried at New Balance alone, under the
      // task id bots knew before retailers were listed.
      const files = await readdir(directory)
      assert.sameMembers(files, [`${ladder.publicId}.json`, `${cheaper.publicId}.json`])
      const task = JSON.parse(await readFile(join(directory, `${ladder.publicId}.json`), 'utf8'))
      assert.equal(task.taskId, `task-${ladder.publicId}-1`)
      assert.deepEqual(task.sizes, ['10', '10.5', '9.5'])
      assert.equal(task.size, '10')
      assert.deepInclude(task.retailer, {
        retailer: 'newbalance',
        name: 'New Balance',
        url: 'https://www.newbalance.com/990v6',
        priceCents: 21_999,
      })
      assert.equal(task.maxItemPriceCents, 25_000)
      assert.deepEqual(task.aco.sizes, ['10', '10.5', '9.5'])
      assert.equal(task.aco.retailer.retailer, 'newbalance')

      const other = JSON.parse(await readFile(join(directory, `${cheaper.publicId}.json`), 'utf8'))
      assert.deepEqual(other.sizes, ['10'])
      assert.equal(other.retailer.retailer, 'newbalance')
      assert.equal(other.maxItemPriceCents, 22_000)
    } finally {
      await rm(directory, { recursive: true, force: true })
    }

    const row = await db
      .from('orders')
      .where('id', kithOnly.id)
      .select('status', 'fail_code', 'fee_status', 'hold_status')
      .firstOrFail()
    assert.equal(row.status, 'fail')
    assert.equal(row.fail_code, 'price_cap')
    assert.equal(row.fee_status, 'none', 'nothing charged')
    assert.equal(row.hold_status, 'released')
    const mail = await db
      .from('email_messages')
      .where('to_address', kithOnly.email)
      .where('text_body', 'like', '%Not secured%')
      .first()
    assert.exists(mail, 'the buyer is told')
    assert.include(mail.text_body, 'above your price cap at every retailer')
  })
})
