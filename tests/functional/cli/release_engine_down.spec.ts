import { test } from '@japa/runner'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { runCli } from '#tests/support/cli'

/*
| A checkout bot that is down on a small release: the run spawned as cron spawns it (committed
| data, no global transaction), then the alert check as an operator runs it.
*/

const PREFIX = 'clidown-'

/** A URL nothing listens on: a port opened, noted and closed again. */
async function closedUrl() {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  return `http://127.0.0.1:${port}/tasks`
}

/** A bot that accepts every task. */
async function acceptingBot() {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.end('{}'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

const webhookEnv = (url: string) => ({
  CHECKOUT_ENGINE: 'webhook',
  CHECKOUT_WEBHOOK_URL: url,
  CHECKOUT_WEBHOOK_ATTEMPTS: '2',
  CHECKOUT_WEBHOOK_BACKOFF_MS: '10',
})

test.group('CLI: release:run with a checkout engine that takes nothing', (group) => {
  let restoreSandbox: () => Promise<void>
  let lastIncident = 0
  group.each.setup(async () => {
    await removeCommittedReleaseData(PREFIX)
    restoreSandbox = await sandboxSnapshot()
    const row = await db.from('incidents').max('id as last').first()
    lastIncident = Number(row?.last ?? 0)
  })
  group.each.teardown(async () => {
    const created = db.from('incidents').where('id', '>', lastIncident).select('id')
    await db.from('incident_notices').whereIn('incident_id', created).delete()
    await db.from('email_messages').where('dedupe_key', 'like', 'incident:%').delete()
    await db.from('incidents').where('id', '>', lastIncident).delete()
    await removeCommittedReleaseData(PREFIX)
    await restoreSandbox()
  })

  test('one due order and a bot that is down: the run fails loudly, exit 1, the incident opens; a later run that hands it over finishes', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(1, { emailPrefix: PREFIX })
    const url = await closedUrl()
    const reason =
      `1 of 1 due order was not accepted by the engine: checkout engine unreachable at ${url}: ` +
      'ECONNREFUSED after 2 tries'

    const down = await runCli(['release:run', '--product', String(product.id)], webhookEnv(url))
    assert.equal(down.code, 1, down.stdout)
    assert.match(down.stderr, /Release run #\d+ failed: /)
    assert.include(down.stderr, reason)
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'pending', 'left as it was, for the next run')
    assert.equal(order.feeStatus, 'none')

    const status = await runCli(['--json', 'release:status', '--product', String(product.id)])
    assert.equal(status.code, 0, status.stderr)
    assert.containsSubset(status.json.lastRun, { status: 'failed', error: reason })

    const checked = await runCli(['--json', 'alerts:check'])
    assert.equal(checked.code, 0, checked.stderr)
    const opened = checked.json.opened.find((item: any) => item.rule === 'release_run_failed')
    assert.exists(opened, JSON.stringify(checked.json.opened))
    assert.match(opened.title, /^Release run #\d+ failed$/)
    const incident = await db.from('incidents').where('id', opened.id).first()
    assert.include(incident.detail, 'ECONNREFUSED')

    // The bot is back: every due order is accepted, the run finishes, the incident resolves.
    const bot = await acceptingBot()
    try {
      const up = await runCli(
        ['--json', 'release:run', '--product', String(product.id)],
        webhookEnv(bot.url)
      )
      assert.equal(up.code, 0, up.stderr)
      assert.containsSubset(up.json, { success: true, status: 'finished', submitted: 1 })
      assert.notProperty(up.json, 'error')
    } finally {
      await bot.close()
    }
    const after = await Order.findOrFail(orders[0].id)
    assert.equal(after.status, 'processing')
    const again = await runCli(['--json', 'alerts:check'])
    assert.equal(again.code, 0, again.stderr)
    assert.include(
      again.json.resolved.map((item: any) => item.id),
      opened.id
    )
  }).timeout(180_000)
})
