import { test } from '@japa/runner'
import { releaseConfig } from '#release/services/release_config'
import testUtils from '@adonisjs/core/services/test_utils'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import AuditLog from '#core/models/audit_log'
import Order from '#orders/models/order'
import { releaseRunner } from '#release/services/release_runner'
import { FilesEngine, signPayload, WebhookEngine } from '#release/services/checkout_engines'
import { importResults } from '#release/services/import_files'
import { releasedProductWithOrders } from '#tests/support/release'

/** Tasks are signed with one secret, results verified with another (.env.test's). */
const { taskSecret: TASK_SECRET, resultsSecret: RESULTS_SECRET } = releaseConfig().webhook

/** A bot endpoint that accepts every task. */
async function acceptingBot() {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.end('{}'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`
  return { url, close: () => new Promise((resolve) => server.close(resolve)) }
}

const webhook = (url: string) =>
  new WebhookEngine({
    url,
    taskSecret: TASK_SECRET,
    attempts: 1,
    backoffMs: 10,
    timeoutMs: 2000,
  })

function post(client: any, payload: unknown, signedAt = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify(payload)
  return client
    .post('/api/hooks/checkout-results')
    .header('content-type', 'application/json')
    .header('x-dropslot-signature', signPayload(RESULTS_SECRET, body, signedAt))
    .json(payload)
}

const fees = (orderIds: number[]) =>
  db.from('payment_ledger').whereIn('order_id', orderIds).where('kind', 'fee')

test.group('Release: results are checked before they are applied', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a batch naming an unknown order and an unsubmitted one applies the rest, per item', async ({
    client,
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(3)
    const bot = await acceptingBot()
    try {
      await releaseRunner.run({ productId: product.id, engine: webhook(bot.url) })
    } finally {
      await bot.close()
    }
    // A pending order of another release: never submitted to the bot.
    const { orders: others } = await releasedProductWithOrders(1)

    const payload = {
      results: [
        { orderId: orders[0].publicId, status: 'success', confirmationNumber: 'NK-1' },
        { orderId: '6f1c1d1e-0000-4000-8000-000000000000', status: 'success' },
        { orderId: others[0].publicId, status: 'success', confirmationNumber: 'NK-X' },
        { orderId: orders[1].publicId, status: 'fail', reason: 'Payment declined by retailer' },
      ],
    }
    const response = await post(client, payload)
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.total, 4)
    assert.equal(body.accepted, 2)
    assert.deepEqual(
      body.results.map((item: any) => [item.orderId, item.accepted, item.code ?? item.status]),
      [
        [orders[0].publicId, true, 'success'],
        ['6f1c1d1e-0000-4000-8000-000000000000', false, 'unknown_order'],
        [others[0].publicId, false, 'not_submitted'],
        [orders[1].publicId, true, 'fail'],
      ]
    )
    assert.isString(body.results[2].reason)

    // The replay, signed afresh a second later as a retrying bot does, gets the first answer again
    // and applies nothing twice.
    const replay = await post(client, payload, Math.floor(Date.now() / 1000) + 1)
    replay.assertStatus(200)
    assert.deepEqual(replay.body().results, body.results)
    assert.isTrue(replay.body().duplicate)

    const [won, lost, untouched, other] = await Promise.all(
      [orders[0], orders[1], orders[2], others[0]].map((order) => Order.findOrFail(order.id))
    )
    assert.equal(won.status, 'success')
    assert.equal(won.feeStatus, 'paid')
    assert.equal(lost.status, 'fail')
    assert.equal(lost.failCode, 'declined')
    assert.equal(untouched.status, 'processing')
    assert.equal(other.status, 'pending')
    assert.equal(other.feeStatus, 'none')
    assert.lengthOf(await fees([won.id, lost.id, other.id]), 1)

    // Each applied result is audited with the bot as actor and lands on the timeline.
    const audit = await AuditLog.query()
      .where('action', 'order.result')
      .where('subject_id', won.publicId)
    assert.lengthOf(audit, 1)
    assert.equal(audit[0].actorLabel, 'bot:webhook')
    const events = await db.from('order_events').where('order_id', won.id)
    assert.deepEqual(
      events.map((event) => [event.kind, event.to_status, event.source]),
      [['outcome', 'success', 'webhook']]
    )
    // The failure e-mail is in the customer's words.
    const [mail] = await db
      .from('email_messages')
      .where('order_id', lost.id)
      .where('template', 'order_failed')
    assert.include(mail.text_body, 'declined the payment')
    assert.notInclude(mail.text_body, 'Payment declined by retailer')
  })

  test('import-results takes only orders submitted to the files engine; dry run changes nothing', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2, { priceCents: 3100 })
    const { orders: others } = await releasedProductWithOrders(1)
    const directory = await mkdtemp(join(tmpdir(), 'dropslot-results-'))
    try {
      await releaseRunner.run({ productId: product.id, engine: new FilesEngine(directory) })
      const file = join(directory, 'results.csv')
      await writeFile(
        file,
        [
          'orderId,status,confirmation,reason',
          `${orders[0].publicId},success,ABC-1,`,
          `${orders[1].publicId},fail,,Out of stock`,
          `${others[0].publicId},success,ABC-2,`,
        ].join('\n')
      )

      const dry = await importResults(file, { dryRun: true, actor: { label: 'cli:ops@host' } })
      assert.deepEqual(
        dry.plan.map((item) => [item.row, item.orderId, item.outcome, item.feeCents]),
        [
          [1, orders[0].publicId, 'success', 3100],
          [2, orders[1].publicId, 'fail', 0],
        ]
      )
      assert.equal(dry.plan[0].customer, orders[0].email)
      assert.deepEqual(
        dry.errors.map((item) => [item.row, item.code]),
        [[3, 'not_submitted']]
      )
      for (const order of [...orders, ...others]) {
        await order.refresh()
        assert.notEqual(order.status, 'success')
        assert.equal(order.feeStatus, 'none')
      }
      assert.lengthOf(await fees([...orders, ...others].map((order) => order.id)), 0)

      const real = await importResults(file, { actor: { label: 'cli:ops@host' } })
      assert.lengthOf(real.applied, 2)
      assert.deepEqual(
        real.errors.map((item) => [item.row, item.code]),
        [[3, 'not_submitted']]
      )
      await others[0].refresh()
      assert.equal(others[0].status, 'pending')
      assert.lengthOf(await fees([others[0].id]), 0)
      assert.lengthOf(await fees([orders[0].id]), 1)

      const imports = await AuditLog.query()
        .whereIn('action', ['order.import_results', 'order.import_results_dry_run'])
        .orderBy('id')
      assert.deepEqual(
        imports.map((entry) => [entry.action, entry.actorLabel, entry.meta?.applied]),
        [
          ['order.import_results_dry_run', 'cli:ops@host', 0],
          ['order.import_results', 'cli:ops@host', 2],
        ]
      )
      const perOrder = await AuditLog.query()
        .where('action', 'order.result')
        .where('subject_id', orders[0].publicId)
      assert.equal(perOrder[0].actorLabel, 'cli:ops@host')
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })

  test('the simulator goes through the same path: audited as the run, on the timeline', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2)
    const report = await releaseRunner.run({
      productId: product.id,
      engine: {
        name: 'simulator' as const,
        needsCardData: false,
        submit: async () => ({ status: 'fail' as const, reason: 'Retailer queue timed out.' }),
      },
    })
    assert.equal(report.failed, 2)
    const audit = await AuditLog.query()
      .where('action', 'order.result')
      .whereIn(
        'subject_id',
        orders.map((order) => order.publicId)
      )
    assert.lengthOf(audit, 2)
    assert.equal(audit[0].actorLabel, `release:run #${report.runId}`)
    const events = await db.from('order_events').whereIn(
      'order_id',
      orders.map((order) => order.id)
    )
    assert.lengthOf(events, 2)
  })
})
