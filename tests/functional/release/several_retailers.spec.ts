import { createServer, type IncomingMessage } from 'node:http'
import { twoRetailerProduct } from '#tests/support/release'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import { sqlTime } from '#core/helpers/sql_time'
import { checkoutService } from '#checkout/services/checkout_service'
import { FilesEngine, signPayload, WebhookEngine } from '#release/services/checkout_engines'
import { releaseConfig } from '#release/services/release_config'
import { importResults } from '#release/services/import_files'
import { checkoutHooks } from '#release/services/checkout_hooks'
import env from '#start/env'
import { releaseRunner } from '#release/services/release_runner'
import { customerWithCard, placeHolds, productFor, profileFor } from '#tests/helpers'
import { signedRetailerMail, useMailIntake } from '#tests/support/mail'
import { mailIntake } from '#mail/services/mail_intake'
import { orderMailAddress } from '#orders/services/order_mail_address'
import Order from '#orders/models/order'
import { clock } from '#core/services/clock'

/** A slot with a three-size ladder and a $250 cap, its card check placed, the drop released. */
async function ladderSlot() {
  const product = await twoRetailerProduct({ priceCents: 2500 })
  const customer = await customerWithCard()
  const profile = await profileFor(customer.user)
  const order = await checkoutService.checkout(customer.user, {
    productId: product.id,
    style: 'Black',
    size: '10',
    sizes: ['10', '10.5', '9.5'],
    maxItemPriceCents: 25_000,
    profileId: profile.publicId,
  })
  await placeHolds()
  await db
    .from('products')
    .where('id', product.id)
    .update({ release_at: sqlTime(DateTime.now().minus({ minutes: 1 }).toJSDate()) })
  return { product, order }
}

async function orderRow(id: number) {
  return db.from('orders').where('id', id).firstOrFail()
}

async function fees(orderId: number) {
  return db.from('payment_ledger').where('order_id', orderId).where('kind', 'fee')
}

async function triesOf(orderId: number) {
  const rows = await db.from('release_tries').where('order_id', orderId).orderBy('position')
  return Object.fromEntries(rows.map((row) => [row.retailer, row.status]))
}

/** Applies a results file of `rows` (CSV lines after the header) as `orders:import-results`. */
async function results(
  rows: string[],
  header = 'taskId,status,confirmation,reason,size,totalCents'
) {
  const directory = await mkdtemp(join(tmpdir(), 'dropslot-results-'))
  try {
    const path = join(directory, 'results.csv')
    await writeFile(path, [header, ...rows].join('\n'))
    return await importResults(path, { actor: { label: 'test' } })
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

test.group('Release run: one slot tried at every retailer, for one fee', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a task per retailer; the first success wins on the ladder size, the other task is cancelled, one fee, and the e-mail names where and which size', async ({
    assert,
    client,
  }) => {
    const { order } = await ladderSlot()
    const engine = new FilesEngine()
    const mine = async () => {
      const names = await readdir(engine.path)
      return names.filter((name) => name.startsWith(order.publicId))
    }

    const report = await releaseRunner.run({ productId: order.productId, engine })
    assert.equal(report.submitted, 1, 'one order')
    assert.equal(report.awaitingResult, 1)
    assert.sameMembers(await mine(), [
      `${order.publicId}-kith.json`,
      `${order.publicId}-newbalance.json`,
    ])
    for (const retailer of ['kith', 'newbalance']) {
      const task = JSON.parse(
        await readFile(join(engine.path, `${order.publicId}-${retailer}.json`), 'utf8')
      )
      assert.deepEqual(task.sizes, ['10', '10.5', '9.5'], retailer)
      assert.equal(task.retailer.retailer, retailer)
      assert.equal(task.maxItemPriceCents, 25_000)
    }

    // New Balance confirms on the second size of the ladder; Kith is still trying.
    const won = await results([`task-${order.publicId}-1-newbalance,success,NB-1001,,10.5,21999`])
    assert.deepEqual(won.errors, [])
    const after = await orderRow(order.id)
    assert.equal(after.status, 'success')
    assert.equal(after.secured_retailer, 'newbalance')
    assert.equal(after.secured_size, '10.5')
    assert.equal(after.fee_status, 'paid')
    assert.lengthOf(await fees(order.id), 1)
    assert.deepEqual(await triesOf(order.id), { kith: 'cancelled', newbalance: 'won' })
    assert.deepEqual(await mine(), [], "the cancelled task's file is gone with the rest")

    const secured = await db
      .from('email_messages')
      .where('order_id', order.id)
      .where('template', 'order_secured')
      .firstOrFail()
    assert.include(secured.text_body, 'at New Balance')
    assert.include(secured.text_body, 'size 10.5')

    // Kith's late success: recorded and flagged, never a second fee.
    const extra = await results([`task-${order.publicId}-1-kith,success,KITH-77,,10,23500`])
    assert.deepEqual(extra.errors, [])
    assert.lengthOf(await fees(order.id), 1, 'one fee')
    assert.deepEqual(await triesOf(order.id), { kith: 'extra_success', newbalance: 'won' })
    const flagged = await db
      .from('order_events')
      .where('order_id', order.id)
      .where('kind', 'extra_success')
    assert.lengthOf(flagged, 1)
    const told = await db
      .from('email_messages')
      .where('order_id', order.id)
      .where('template', 'extra_success')
      .firstOrFail()
    assert.include(told.subject, 'Kith also confirmed')
    assert.include(told.text_body, 'nothing more is charged')

    // The public report counts the order once, where and in which size it was won.
    const published = await client.get(`/api/releases/${order.productId}/report`)
    published.assertStatus(200)
    assert.deepEqual(published.body().wins, {
      byRetailer: [{ retailer: 'newbalance', name: 'New Balance', won: 1 }],
      bySize: [{ size: '10.5', won: 1 }],
    })
  })

  test('a sold-out at one retailer waits for the other; the order fails only when every retailer failed, nothing charged', async ({
    assert,
  }) => {
    const { order } = await ladderSlot()
    const engine = new FilesEngine()
    await releaseRunner.run({ productId: order.productId, engine })

    // A bot's own long code is kept as its category.
    const kith = await results(
      [`task-${order.publicId}-1-kith,fail,Sold out,KITH_QUEUE_SOLD_OUT_AT_DROP_TIME`],
      'taskId,status,reason,reasonCode'
    )
    assert.deepEqual(kith.errors, [])
    const waiting = await orderRow(order.id)
    assert.equal(waiting.status, 'processing', 'New Balance is still trying')
    assert.deepEqual(await triesOf(order.id), { kith: 'failed', newbalance: 'sent' })

    await results([`task-${order.publicId}-1-newbalance,fail,,Sold out,,`])
    const after = await orderRow(order.id)
    assert.equal(after.status, 'fail')
    assert.equal(after.fail_code, 'sold_out')
    assert.equal(after.fee_status, 'none')
    assert.lengthOf(await fees(order.id), 0)
  })

  test('a success above the cap or in a size the buyer did not choose is refused for review, never charged', async ({
    assert,
  }) => {
    const { order } = await ladderSlot()
    await releaseRunner.run({ productId: order.productId, engine: new FilesEngine() })

    const refused = await results([
      `task-${order.publicId}-1-kith,success,KITH-1,,10,26000`,
      `task-${order.publicId}-1-newbalance,success,NB-1,,11,21999`,
      `task-${order.publicId},success,X-1,,10,`,
    ])
    assert.deepEqual(
      refused.errors.map((error) => error.code),
      ['above_price_cap', 'size_not_chosen', 'unknown_try']
    )
    assert.include(refused.errors[0].error, "above the buyer's cap of $250.00")
    const after = await orderRow(order.id)
    assert.equal(after.status, 'processing')
    assert.equal(after.fee_status, 'none')
    assert.deepEqual(await triesOf(order.id), { kith: 'over_cap', newbalance: 'over_cap' })
  })

  test('the webhook engine receives a signed cancel of the task that lost', async ({ assert }) => {
    const { order } = await ladderSlot()
    const received: { body: string; signature: string }[] = []
    const server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk) => chunks.push(chunk))
      request.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: String(request.headers['x-dropslot-signature']),
        })
        response.end('{}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`
    const { taskSecret } = releaseConfig().webhook
    const original = env.get('CHECKOUT_WEBHOOK_URL')
    try {
      // The cancel goes to the configured bot, as a run's engine would.
      env.set('CHECKOUT_WEBHOOK_URL', url)
      const engine = new WebhookEngine({
        url,
        taskSecret,
        attempts: 1,
        backoffMs: 10,
        timeoutMs: 2000,
      })
      await releaseRunner.run({ productId: order.productId, engine })
      assert.sameMembers(
        received.map((item) => JSON.parse(item.body).taskId),
        [`task-${order.publicId}-1-kith`, `task-${order.publicId}-1-newbalance`]
      )

      const body = JSON.stringify({
        taskId: `task-${order.publicId}-1-kith`,
        status: 'success',
        confirmationNumber: 'KITH-9',
        size: '9.5',
      })
      const { resultsSecret } = releaseConfig().webhook
      const answer = await checkoutHooks.receive(body, signPayload(resultsSecret, body))
      assert.equal((answer as { accepted?: number }).accepted, 1)

      const cancel = received
        .map((item) => ({ ...item, json: JSON.parse(item.body) }))
        .find((item) => item.json.type === 'cancel')
      assert.exists(cancel, 'a cancel was sent')
      assert.deepEqual(cancel!.json, {
        type: 'cancel',
        taskId: `task-${order.publicId}-1-newbalance`,
        orderId: order.publicId,
        retailer: 'newbalance',
      })
      const timestamp = Number(/t=(\d+)/.exec(cancel!.signature)![1])
      assert.equal(signPayload(taskSecret, cancel!.body, timestamp), cancel!.signature)
      const secured = await orderRow(order.id)
      assert.equal(secured.secured_size, '9.5')
    } finally {
      env.set('CHECKOUT_WEBHOOK_URL', original ?? '')
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

test.group('Mail intake: any retailer the order was sent to may prove it, once', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    return () => env.set('MAIL_INTAKE_DOMAIN', '')
  })

  test("the first retailer's signed confirmation wins; the second's is an extra success, never a second fee; a retailer it was not sent to proves nothing", async ({
    assert,
  }) => {
    const product = await productFor({ totalStock: 10, stockTaken: 0, priceCents: 2500 })
    for (const [position, retailer] of ['kith', 'nike'].entries()) {
      await db.table('product_retailers').insert({
        product_id: product.id,
        position,
        retailer,
        price_cents: 20_000,
        created_at: sqlTime(),
      })
    }
    await db.from('products').where('id', product.id).update({ retailer: 'kith' })
    const customer = await customerWithCard()
    const profile = await profileFor(customer.user)
    const opened = await checkoutService.checkout(customer.user, {
      productId: product.id,
      style: 'Black',
      size: '10',
      sizes: ['10', '10.5'],
      profileId: profile.publicId,
    })
    await placeHolds()
    await db
      .from('products')
      .where('id', product.id)
      .update({ release_at: sqlTime(DateTime.now().minus({ minutes: 1 }).toJSDate()) })
    const directory = await mkdtemp(join(tmpdir(), 'dropslot-mail-tries-'))
    try {
      await releaseRunner.run({ productId: product.id, engine: new FilesEngine(directory) })
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
    const order = await Order.findOrFail(opened.id)
    const to = orderMailAddress.of(order)!

    const stranger = await mailIntake.receive(
      await signedRetailerMail({ retailer: 'adidas', kind: 'confirmation', to, size: '10' }),
      'file'
    )
    assert.equal(stranger.action, 'review', 'adidas was never sent this order')

    const nike = await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'nike',
        kind: 'confirmation',
        to,
        orderNumber: 'C01-NIKE',
        size: '10.5',
      }),
      'file'
    )
    assert.equal(nike.action, 'success', JSON.stringify(nike))
    let row = await orderRow(order.id)
    assert.equal(row.secured_retailer, 'nike')
    assert.equal(row.secured_size, '10.5')
    assert.lengthOf(await fees(order.id), 1)

    const kith = await mailIntake.receive(
      await signedRetailerMail({
        retailer: 'kith',
        kind: 'confirmation',
        to,
        orderNumber: 'KITH-2',
        size: '10',
      }),
      'file'
    )
    assert.equal(kith.action, 'recorded')
    assert.lengthOf(await fees(order.id), 1, 'one fee')
    assert.deepEqual(await triesOf(order.id), { kith: 'extra_success', nike: 'won' })
    row = await orderRow(order.id)
    assert.equal(row.secured_retailer, 'nike')
  })
})

test.group('Release run: a restock window holds a sold-out open until it closes', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.teardown(() => clock.reset())

  /** The ladder slot, its product's restocks tried for two hours after the drop. */
  async function restockingSlot() {
    const slot = await ladderSlot()
    await db
      .from('products')
      .where('id', slot.product.id)
      .update({ restock_until: sqlTime(DateTime.now().plus({ hours: 2 }).toJSDate()) })
    await releaseRunner.run({ productId: slot.product.id, engine: new FilesEngine() })
    return slot
  }

  test('every retailer sold out at the drop: the order waits, then fails once the window closes, nothing charged', async ({
    assert,
  }) => {
    const { order } = await restockingSlot()
    await results([
      `task-${order.publicId}-1-kith,fail,,Sold out,,`,
      `task-${order.publicId}-1-newbalance,fail,,Sold out,,`,
    ])
    const waiting = await orderRow(order.id)
    assert.equal(waiting.status, 'processing', 'restocks are still tried')

    const early = await releaseRunner.run({ productId: order.productId })
    assert.equal(early.failed, 0, 'the window is still open')

    clock.travel(2 * 3_600_000 + 60_000)
    const closing = await releaseRunner.run({ productId: order.productId })
    assert.equal(closing.failed, 1)
    const after = await orderRow(order.id)
    assert.equal(after.status, 'fail')
    assert.equal(after.fail_code, 'sold_out')
    assert.equal(after.fee_status, 'none')
    assert.lengthOf(await fees(order.id), 0)
  })

  test('a restock found inside the window wins the order, one fee; the report waits for the window', async ({
    assert,
    client,
  }) => {
    const { order } = await restockingSlot()
    await results([
      `task-${order.publicId}-1-kith,fail,,Sold out,,`,
      `task-${order.publicId}-1-newbalance,fail,,Sold out,,`,
    ])
    clock.travel(3_600_000)
    const restock = await results([`task-${order.publicId}-1-kith,success,KITH-R1,,9.5,23500`])
    assert.deepEqual(restock.errors, [])
    const after = await orderRow(order.id)
    assert.equal(after.status, 'success')
    assert.equal(after.secured_retailer, 'kith')
    assert.equal(after.secured_size, '9.5')
    assert.lengthOf(await fees(order.id), 1)

    const during = await client.get(`/api/releases/${order.productId}/report`)
    during.assertStatus(404)
    during.assertBodyContains({ code: 'report_not_ready' })
    clock.travel(3_600_000 + 60_000)
    const settled = await client.get(`/api/releases/${order.productId}/report`)
    settled.assertStatus(200)
  })
})
