import { test } from '@japa/runner'
import { releaseConfig } from '#release/services/release_config'
import testUtils from '@adonisjs/core/services/test_utils'
import { createServer, type IncomingMessage } from 'node:http'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import Order from '#orders/models/order'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import AuditLog from '#core/models/audit_log'
import { releaseRunner } from '#release/services/release_runner'
import ReleaseRun from '#release/models/release_run'
import {
  EngineError,
  FilesEngine,
  signPayload,
  SimulatorEngine,
  WebhookEngine,
} from '#release/services/checkout_engines'
import { importResults } from '#release/services/import_files'
import { releasedProductWithOrders } from '#tests/support/release'
import { adminWithToken } from '#tests/helpers'

/** One column of an order as it is now in the database. */
async function field(id: number, name: keyof Order) {
  const order = await Order.findOrFail(id)
  return order[name]
}

/** Tasks are signed with one secret, results verified with another (.env.test's). */
const { taskSecret: TASK_SECRET, resultsSecret: RESULTS_SECRET } = releaseConfig().webhook

type Received = { body: string; signature: string; idempotencyKey: string }

/** A bot endpoint on loopback: answers with the given statuses in turn, then 200. */
async function fakeBot(statuses: number[] = []) {
  const received: Received[] = []
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(request.headers['x-dropslot-signature']),
        idempotencyKey: String(request.headers['idempotency-key']),
      })
      response.statusCode = statuses.shift() ?? 200
      response.end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`
  return { url, received, close: () => new Promise((resolve) => server.close(resolve)) }
}

function verify(body: string, header: string) {
  const timestamp = Number(/t=(\d+)/.exec(header)![1])
  return signPayload(TASK_SECRET, body, timestamp) === header
}

const webhook = (url: string, attempts = 3) =>
  new WebhookEngine({
    url,
    taskSecret: TASK_SECRET,
    attempts,
    backoffMs: 10,
    timeoutMs: 2000,
  })

test.group('Release: webhook engine and result callbacks', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('posts signed tasks, retries 5xx with back-off; the signed callback settles the order', async ({
    assert,
    client,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2)
    const { token } = await adminWithToken()
    const bot = await fakeBot([503, 500])
    let runId: number | null = null
    try {
      const report = await releaseRunner.run({ productId: product.id, engine: webhook(bot.url) })
      runId = report.runId
      assert.equal(report.submitted, 2)
      assert.equal(report.awaitingResult, 2)
      // Two failed deliveries, then one per order.
      assert.lengthOf(bot.received, 4)
      for (const delivery of bot.received) assert.isTrue(verify(delivery.body, delivery.signature))
      const task = JSON.parse(bot.received[3].body)
      assert.equal(task.taskId, bot.received[3].idempotencyKey)
      assert.equal(task.aco.profile.card.number, '4242424242424242')
      for (const order of orders) {
        assert.equal(await field(order.id, 'status'), 'processing')
      }
      // Each reveal of card data to the bot is audited.
      const audits = await AuditLog.query().where('action', 'order.aco_submit')
      assert.lengthOf(audits, 2)
    } finally {
      await bot.close()
    }

    // A second run does not post them again: they wait for the bot.
    const again = await releaseRunner.run({
      productId: product.id,
      engine: webhook('http://127.0.0.1:9/'),
    })
    assert.equal(again.submitted, 0)
    // The console's run row: 2 handed to the bot, both awaiting its result.
    const waiting = await client.get(`/api/admin/release-runs/${runId}`).bearerToken(token)
    assert.deepInclude(waiting.body(), {
      ordersSubmitted: 2,
      ordersAwaiting: 2,
      ordersSucceeded: 0,
      ordersFailed: 0,
      productTitle: product.title,
    })

    const body = JSON.stringify({
      results: [
        { orderId: orders[0].publicId, status: 'success', confirmationNumber: 'NKE-123456' },
        { orderId: orders[1].publicId, status: 'fail', reason: 'Sold out.' },
      ],
    })
    const signature = signPayload(RESULTS_SECRET, body)
    const tampered = await client
      .post('/api/hooks/checkout-results')
      .header('content-type', 'application/json')
      .header('x-dropslot-signature', signature)
      .json(JSON.parse(body.replace('NKE-123456', 'NKE-999999')))
    tampered.assertStatus(400)
    tampered.assertBodyContains({ success: false, code: 'invalid_signature' })

    const stale = signPayload(RESULTS_SECRET, body, Math.floor(Date.now() / 1000) - 3600)
    const old = await client
      .post('/api/hooks/checkout-results')
      .header('content-type', 'application/json')
      .header('x-dropslot-signature', stale)
      .json(JSON.parse(body))
    old.assertStatus(400)

    // Signed with the task secret (what the bot, or whoever reads its logs, can check tasks
    // with): not a result of ours.
    assert.notEqual(TASK_SECRET, RESULTS_SECRET)
    const withTaskSecret = await client
      .post('/api/hooks/checkout-results')
      .header('content-type', 'application/json')
      .header('x-dropslot-signature', signPayload(TASK_SECRET, body))
      .json(JSON.parse(body))
    withTaskSecret.assertStatus(400)
    withTaskSecret.assertBodyContains({ code: 'invalid_signature' })

    const accepted = await client
      .post('/api/hooks/checkout-results')
      .header('content-type', 'application/json')
      .header('x-dropslot-signature', signature)
      .json(JSON.parse(body))
    accepted.assertStatus(200)
    accepted.assertBodyContains({ received: true, duplicate: false })

    const replayed = await client
      .post('/api/hooks/checkout-results')
      .header('content-type', 'application/json')
      .header('x-dropslot-signature', signature)
      .json(JSON.parse(body))
    replayed.assertStatus(200)
    replayed.assertBodyContains({ duplicate: true })

    // The counts moved as the results arrived.
    const settled = await client.get(`/api/admin/release-runs/${runId}`).bearerToken(token)
    assert.deepInclude(settled.body(), { ordersAwaiting: 0, ordersSucceeded: 1, ordersFailed: 1 })

    const won = await Order.findOrFail(orders[0].id)
    const lost = await Order.findOrFail(orders[1].id)
    assert.equal(won.status, 'success')
    assert.equal(won.confirmationNumber, 'NKE-123456')
    assert.equal(won.feeStatus, 'paid')
    assert.equal(lost.status, 'fail')
    assert.equal(lost.feeStatus, 'none')
    const fees = await PaymentLedgerEntry.query()
      .where('kind', 'fee')
      .whereIn('order_id', [won.id, lost.id])
    assert.lengthOf(fees, 1)
  })

  test('gives up after its attempts on 5xx, refuses at once on 4xx; the order is retried later', async ({
    assert,
  }) => {
    const down = await fakeBot([500, 500, 500])
    await assert.rejects(
      () =>
        webhook(down.url).submit({
          taskId: 't',
          orderId: 'o',
          round: 1,
          productId: 1,
          productTitle: 'x',
          style: '',
          size: '9',
          sizes: ['9'],
          retailer: null,
          tryNumber: 1,
          maxItemPriceCents: null,
          aco: null,
        }),
      EngineError
    )
    assert.lengthOf(down.received, 3)
    await down.close()

    const { product, orders } = await releasedProductWithOrders(1)
    const refusing = await fakeBot([422])
    try {
      const report = await releaseRunner.run({
        productId: product.id,
        engine: webhook(refusing.url),
      })
      assert.equal(report.submitErrors, 1)
      // An order the bot refused fails the run, with the bot's answer as the reason.
      assert.equal(report.status, 'failed')
      assert.match(report.error!, /^1 of 1 due order was not accepted by the engine: .*HTTP 422/)
      assert.lengthOf(refusing.received, 1)
      assert.equal(await field(orders[0].id, 'status'), 'processing')
    } finally {
      await refusing.close()
    }
    // The next run hands it over again.
    const ok = await fakeBot()
    try {
      const report = await releaseRunner.run({ productId: product.id, engine: webhook(ok.url) })
      assert.equal(report.submitted, 1)
      assert.lengthOf(ok.received, 1)
    } finally {
      await ok.close()
    }
  })

  test('a bot that is down stops the run after 3 orders in a row: failed, with the reason, orders left pending', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(6)
    // A port nothing listens on: opened, then closed again.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const port = (probe.address() as AddressInfo).port
    await new Promise((resolve) => probe.close(resolve))
    const url = `http://127.0.0.1:${port}/hook`
    const report = await releaseRunner.run({ productId: product.id, engine: webhook(url, 2) })
    assert.equal(report.status, 'failed')
    assert.equal(
      report.error,
      `checkout engine unreachable at ${url}: ECONNREFUSED after 2 tries; stopped after 3 orders in a row, all left pending`
    )
    assert.equal(report.submitted, 0)
    assert.equal(report.submitErrors, 3)
    const run = await ReleaseRun.findOrFail(report.runId)
    assert.equal(run.status, 'failed')
    assert.equal(run.error, report.error)
    for (const order of orders) assert.equal(await field(order.id, 'status'), 'pending')

    // With the engine back, the next run takes every order.
    const next = await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 1, delayMs: 0, seed: 'breaker' }),
    })
    assert.equal(next.status, 'finished')
    assert.equal(next.submitted, 6)
    assert.equal(next.succeeded, 6)
  })

  test('a bot that does not answer in time is tried again', async ({ assert }) => {
    let calls = 0
    const server = createServer((request, response) => {
      request.resume()
      calls++
      // The first delivery is never answered (held open until the test closes the server): only
      // the engine's own timeout ends it. The second is answered.
      if (calls > 1) response.end('{}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`
    try {
      const engine = new WebhookEngine({
        url,
        taskSecret: TASK_SECRET,
        attempts: 3,
        backoffMs: 10,
        timeoutMs: 200,
      })
      const result = await engine.submit({
        taskId: 'task-1',
        orderId: 'order-1',
        round: 1,
        productId: 1,
        productTitle: 'Test',
        style: '',
        size: '9',
        sizes: ['9'],
        retailer: null,
        tryNumber: 1,
        maxItemPriceCents: null,
        aco: null,
      })
      assert.deepEqual(result, { status: 'submitted' })
      assert.equal(calls, 2)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  test('callbacks with bad input are 4xx and change nothing', async ({ client, assert }) => {
    const { orders } = await releasedProductWithOrders(1)
    for (const payload of [{ orderId: orders[0].publicId, status: 'won' }, { status: 'success' }]) {
      const body = JSON.stringify(payload)
      const response = await client
        .post('/api/hooks/checkout-results')
        .header('content-type', 'application/json')
        .header('x-dropslot-signature', signPayload(RESULTS_SECRET, body))
        .json(payload)
      response.assertStatus(422)
    }
    const unsigned = await client
      .post('/api/hooks/checkout-results')
      .json({ orderId: orders[0].publicId, status: 'success' })
    unsigned.assertStatus(400)
    assert.equal(await field(orders[0].id, 'status'), 'pending')
  })

  test('files engine writes task files; a results file settles them', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(3)
    // The configured folder, where the engine writes and results delete; results elsewhere.
    const engine = new FilesEngine()
    const directory = engine.path
    const mine = (files: string[]) =>
      files.filter((file) => orders.some((order) => file.startsWith(order.publicId)))
    const resultsDirectory = await mkdtemp(join(tmpdir(), 'dropslot-results-'))
    try {
      const report = await releaseRunner.run({ productId: product.id, engine })
      assert.equal(report.awaitingResult, 3)
      const files = mine(await readdir(directory))
      assert.sameMembers(
        files,
        orders.map((order) => `${order.publicId}.json`)
      )
      const task = JSON.parse(await readFile(join(directory, files[0]), 'utf8'))
      assert.properties(task, ['taskId', 'orderId', 'aco'])

      const results = join(resultsDirectory, 'results.csv')
      await writeFile(
        results,
        [
          'orderId,status,confirmation,reason',
          `${orders[0].publicId},success,ABC-1,`,
          `${orders[1].publicId},fail,,Out of stock`,
          `${orders[2].publicId},maybe,,`,
          'not-an-order,success,,',
        ].join('\n')
      )
      const imported = await importResults(results, { actor: { label: 'test' } })
      assert.lengthOf(imported.applied, 2)
      assert.deepEqual(
        imported.errors.map((error) => error.row),
        [3, 4]
      )
      assert.include(imported.errors[0].error, 'status must be success or fail')
      assert.include(imported.errors[1].error, 'Order not found')
      assert.equal(await field(orders[0].id, 'feeStatus'), 'paid')
      assert.equal(await field(orders[1].id, 'status'), 'fail')
      assert.equal(await field(orders[2].id, 'status'), 'processing')
      // The task files of the two results, with their card data, are gone; the third waits.
      assert.deepEqual(mine(await readdir(directory)), [`${orders[2].publicId}.json`])

      // Importing the same file again applies nothing twice.
      const again = await importResults(results, { actor: { label: 'test' } })
      assert.lengthOf(again.applied, 2)
      const fees = await PaymentLedgerEntry.query()
        .where('order_id', orders[0].id)
        .where('kind', 'fee')
      assert.lengthOf(fees, 1)
    } finally {
      await rm(resultsDirectory, { recursive: true, force: true })
      for (const order of orders)
        await rm(join(directory, `${order.publicId}.json`), { force: true })
    }
  })
})
