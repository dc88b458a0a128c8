import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import { releaseRunner } from '#release/services/release_runner'
import { FilesEngine, signPayload, WebhookEngine } from '#release/services/checkout_engines'
import { importResults } from '#release/services/import_files'
import { releaseConfig } from '#release/services/release_config'
import { releasedProductWithOrders } from '#tests/support/release'
import { adminWithToken, placeHolds } from '#tests/helpers'

/*
| A retried order is a new round for the checkout engines: its task id carries the round
| (`task-{orderId}-{round}`), and a late result of the failed round before is refused as
| `stale_round` (bot callback item, results-file line), noted on the order's timeline, and
| applies nothing. A result naming no round is taken for round 1.
*/
const { taskSecret, resultsSecret } = releaseConfig().webhook

/** A bot endpoint that accepts every task and keeps what it was sent. */
async function recordingBot() {
  const tasks: { taskId: string; round: number; orderId: string; key: string }[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const task = JSON.parse(body)
      tasks.push({
        taskId: task.taskId,
        round: task.round,
        orderId: task.orderId,
        key: String(request.headers['idempotency-key']),
      })
      response.end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`
  return { url, tasks, close: () => new Promise((resolve) => server.close(resolve)) }
}

const webhook = (url: string) =>
  new WebhookEngine({
    url,
    taskSecret,
    attempts: 1,
    backoffMs: 10,
    timeoutMs: 2000,
  })

function post(client: any, payload: unknown) {
  const body = JSON.stringify(payload)
  return client
    .post('/api/hooks/checkout-results')
    .header('content-type', 'application/json')
    .header('x-dropslot-signature', signPayload(resultsSecret, body))
    .json(payload)
}

async function retry(client: any, order: Order) {
  const { token } = await adminWithToken()
  const response = await client
    .post(`/api/admin/orders/${order.publicId}/retry`)
    .bearerToken(token)
    .json({ reason: 'The bot was down; trying again' })
  response.assertStatus(200)
  await placeHolds()
  return token
}

const fees = (orderId: number) =>
  db.from('payment_ledger').where('order_id', orderId).where('kind', 'fee')

test.group('Release: rounds of a retried order', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a late result of the failed first round is refused as stale_round and shown', async ({
    client,
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(1)
    const [order] = orders
    const bot = await recordingBot()
    try {
      await releaseRunner.run({ productId: product.id, engine: webhook(bot.url) })
      const first = `task-${order.publicId}-1`
      assert.deepEqual(bot.tasks, [
        { taskId: first, round: 1, orderId: order.publicId, key: first },
      ])

      // Round 1 fails (the bot answers with its task id), the order is tried again.
      const failed = await post(client, { taskId: first, status: 'fail', reason: 'Queue timeout' })
      failed.assertStatus(200)
      failed.assertBodyContains({ accepted: 1 })
      await order.refresh()
      assert.equal(order.status, 'fail')
      const token = await retry(client, order)

      await releaseRunner.run({ productId: product.id, engine: webhook(bot.url) })
      const second = `task-${order.publicId}-2`
      assert.deepEqual(bot.tasks[1], {
        taskId: second,
        round: 2,
        orderId: order.publicId,
        key: second,
      })
      await order.refresh()
      assert.equal(order.status, 'processing')

      // The first round's success arrives late: by its task id, by order and round, and with
      // no round at all (taken for round 1). None of them decides round 2.
      const late = await post(client, {
        results: [
          { taskId: first, status: 'success', confirmationNumber: 'LATE-1' },
          { orderId: order.publicId, round: 1, status: 'success', confirmationNumber: 'LATE-2' },
          { orderId: order.publicId, status: 'success', confirmationNumber: 'LATE-3' },
          { taskId: `task-${order.publicId}-3`, status: 'success' },
        ],
      })
      late.assertStatus(200)
      assert.deepEqual(
        late.body().results.map((item: any) => [item.accepted, item.code]),
        [
          [false, 'stale_round'],
          [false, 'stale_round'],
          [false, 'stale_round'],
          [false, 'not_submitted'],
        ]
      )
      assert.include(late.body().results[0].reason, 'round 1')
      assert.include(late.body().results[0].reason, 'round 2')
      await order.refresh()
      assert.equal(order.status, 'processing')
      assert.isNull(order.confirmationNumber)
      assert.lengthOf(await fees(order.id), 0)

      // The console's order page shows each refusal on the timeline, with its code and round.
      const page = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
      page.assertStatus(200)
      assert.equal(page.body().round, 2)
      const refused = page.body().timeline.filter((event: any) => event.kind === 'result_rejected')
      assert.deepEqual(
        refused.map((event: any) => [event.meta.code, event.meta.round ?? null]),
        [
          ['stale_round', 1],
          ['stale_round', 1],
          ['stale_round', null],
          ['not_submitted', 3],
        ]
      )
      assert.include(refused[0].note, 'tried again')

      // Round 2's own result applies: one fee.
      const current = await post(client, {
        taskId: second,
        status: 'success',
        confirmationNumber: 'NK-2',
      })
      current.assertBodyContains({ accepted: 1 })
      await order.refresh()
      assert.equal(order.status, 'success')
      assert.equal(order.confirmationNumber, 'NK-2')
      assert.lengthOf(await fees(order.id), 1)
    } finally {
      await bot.close()
    }
  })

  test('an order never tried again takes a result without a round; mismatched names are a 422', async ({
    client,
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2)
    const bot = await recordingBot()
    try {
      await releaseRunner.run({ productId: product.id, engine: webhook(bot.url) })
    } finally {
      await bot.close()
    }
    for (const payload of [
      { taskId: `task-${orders[0].publicId}-1`, orderId: orders[1].publicId, status: 'success' },
      { taskId: `task-${orders[0].publicId}-1`, round: 2, status: 'success' },
      { taskId: 'task-nope', status: 'success' },
      { orderId: orders[0].publicId, round: 0, status: 'success' },
      { status: 'success' },
    ]) {
      const response = await post(client, payload)
      response.assertStatus(422)
      response.assertBodyContains({ code: 'invalid_result' })
    }
    const legacy = await post(client, {
      results: [
        { orderId: orders[0].publicId, status: 'success', confirmationNumber: 'NK-1' },
        { orderId: orders[1].publicId, round: '1', status: 'fail', reason: 'Sold out' },
      ],
    })
    legacy.assertStatus(200)
    assert.deepEqual(
      legacy.body().results.map((item: any) => [item.accepted, item.status]),
      [
        [true, 'success'],
        [true, 'fail'],
      ]
    )
  })

  test('a results file: a line of the round before is refused with stale_round, the rest apply', async ({
    client,
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(2)
    const [order, other] = orders
    const dir = await mkdtemp(join(tmpdir(), 'dropslot-rounds-'))
    try {
      const engine = new FilesEngine(dir)
      await releaseRunner.run({ productId: product.id, engine })
      const firstTask = JSON.parse(await readFile(join(dir, `${order.publicId}.json`), 'utf8'))
      assert.equal(firstTask.taskId, `task-${order.publicId}-1`)
      assert.equal(firstTask.aco.taskId, firstTask.taskId)

      const round1 = join(dir, 'round1.csv')
      await writeFile(round1, `taskId,status,reason\n${firstTask.taskId},fail,Size unavailable\n`)
      const applied = await importResults(round1)
      assert.lengthOf(applied.applied, 1)
      await retry(client, order)
      await releaseRunner.run({ productId: product.id, engine })
      const secondTask = JSON.parse(await readFile(join(dir, `${order.publicId}.json`), 'utf8'))
      assert.equal(secondTask.taskId, `task-${order.publicId}-2`)
      assert.equal(secondTask.round, 2)

      const late = join(dir, 'late.csv')
      await writeFile(
        late,
        [
          'orderId,taskId,status,confirmation',
          `,${firstTask.taskId},success,LATE-1`,
          `${order.publicId},,success,LATE-2`,
          `${other.publicId},,success,NK-OTHER`,
        ].join('\n')
      )
      const dry = await importResults(late, { dryRun: true })
      assert.deepEqual(
        dry.errors.map((error) => [error.row, error.code]),
        [
          [1, 'stale_round'],
          [2, 'stale_round'],
        ]
      )
      const report = await importResults(late)
      assert.deepEqual(
        report.errors.map((error) => [error.row, error.code]),
        [
          [1, 'stale_round'],
          [2, 'stale_round'],
        ]
      )
      assert.deepEqual(
        report.applied.map((item) => [item.orderId, item.status]),
        [[other.publicId, 'success']]
      )
      await order.refresh()
      assert.equal(order.status, 'processing')
      const rejected = await db
        .from('order_events')
        .where('order_id', order.id)
        .where('kind', 'result_rejected')
      assert.lengthOf(rejected, 2)
      assert.isTrue(rejected.every((row) => JSON.parse(row.meta).code === 'stale_round'))
      assert.lengthOf(await fees(order.id), 0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
