import { readFile } from 'node:fs/promises'
import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import type { Page } from 'playwright-core'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import AuditLog from '#core/models/audit_log'
import ReleaseRun from '#release/models/release_run'
import db from '@adonisjs/lucid/services/db'
import { orderOutcome } from '#release/services/order_outcome'
import { orderNumber } from '#orders/services/order_numbers'
import { DEMO_ADMIN, DEMO_ADMIN_TOTP_SECRET, DEMO_RELEASE } from '#database/seeders/demo_seeder'
import { baseUrl, signIn, useConsolePage } from './chromium.js'

/*
| Release day from the console, on the demo data the browser suite seeds: the demo admin runs
| the demo release product's release, and downloads an order's ACO file with a reason.
*/
test.group('Admin console: release day in Chromium', (group) => {
  const currentPage = useConsolePage(group)
  let page: Page
  group.each.setup(() => {
    page = currentPage()
  })

  test('the demo admin runs release day from the console and sees the results', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_RELEASE.slug)
    const pending = await Order.query().where('product_id', product.id).where('status', 'pending')
    // Two slots of each demo customer, and one of the demo account's.
    const waiting = DEMO_RELEASE.customers.length * 2 + 1
    assert.lengthOf(pending, waiting, 'the demo seed leaves 9 pending orders with holds')

    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, {
      totpSecret: DEMO_ADMIN_TOTP_SECRET,
    })
    await page.getByText('Next release').waitFor()
    await page.getByRole('menuitem', { name: 'Release runs' }).click()
    await page.getByRole('button', { name: 'Run release now' }).first().click()

    const dialog = page.getByRole('dialog')
    await dialog.getByRole('combobox', { name: 'Product' }).click()
    await page.getByRole('option', { name: DEMO_RELEASE.title }).click()
    // A real run is confirmed by typing the product's id; until then the button does nothing.
    const runButton = dialog.getByRole('button', { name: 'Run release', exact: true })
    assert.isTrue(await runButton.isDisabled())
    await dialog.getByLabel(`Type ${product.id} to confirm`).fill('all')
    assert.isTrue(await runButton.isDisabled())
    await dialog.getByLabel(`Type ${product.id} to confirm`).fill(String(product.id))
    await runButton.click()

    const result = dialog.getByTestId('release-run-result')
    await result.getByText(new RegExp(`${waiting} submitted`)).waitFor()
    const run = await ReleaseRun.query().orderBy('id', 'desc').firstOrFail()
    assert.equal(run.trigger, 'console')
    assert.equal(run.productId, product.id)
    assert.equal(run.ordersSubmitted, waiting)
    assert.equal(run.ordersSucceeded + run.ordersFailed, waiting)
    assert.include(
      await result.innerText(),
      `${run.ordersSucceeded} succeeded, ${run.ordersFailed} failed`
    )
    await dialog.getByRole('button', { name: 'Close' }).click()
    // The list refreshed: the run is in it, started from the console.
    await page.getByRole('cell', { name: 'console' }).waitFor()

    const orders = await Order.query().where('product_id', product.id)
    const succeeded = orders.filter((order) => order.status === 'success')
    const failed = orders.filter((order) => order.status === 'fail')
    assert.equal(succeeded.length, run.ordersSucceeded)
    assert.equal(failed.length, run.ordersFailed)

    // The orders list shows each of them as Success or Not secured (failed, never charged).
    const filter = encodeURIComponent(JSON.stringify({ productId: [product.id] }))
    await page.goto(`${baseUrl()}/admin/orders?filter=${filter}`)
    for (const order of orders) {
      const row = page.locator('tr', { hasText: orderNumber(order.id) })
      await row
        .locator('.MuiChip-root', {
          hasText: order.status === 'success' ? 'Success' : 'Not secured',
        })
        .waitFor()
    }
    const rows = page.locator('tbody tr')
    assert.equal(await rows.count(), waiting)
    assert.equal(await page.locator('tbody .MuiChip-root', { hasText: 'Pending' }).count(), 0)
    await page.screenshot({ path: 'tmp/admin-release-run.png', fullPage: true })

    // The dashboard names the run.
    await page.getByRole('menuitem', { name: 'Dashboard' }).click()
    await page.getByTestId('last-release-run').getByText(`Last release run #${run.id}`).waitFor()
  })

  test('a failed run and a dead one stand out in red with their reason', async ({ assert }) => {
    const product = await Product.findByOrFail('slug', DEMO_RELEASE.slug)
    const started = DateTime.now().minus({ minutes: 10 })
    const failed = await ReleaseRun.create({
      productId: product.id,
      engine: 'webhook',
      dryRun: false,
      status: 'failed',
      trigger: 'cli',
      ordersSubmitted: 0,
      ordersSucceeded: 0,
      ordersFailed: 0,
      feesCharged: 0,
      feesDue: 0,
      lockOwner: null,
      error: 'checkout engine unreachable at http://127.0.0.1:9/hook: ECONNREFUSED after 3 tries',
      startedAt: started,
      finishedAt: started.plus({ seconds: 4 }),
      heartbeatAt: started,
    })
    const dead = await ReleaseRun.create({
      productId: null,
      engine: 'simulator',
      dryRun: false,
      status: 'running',
      trigger: 'schedule',
      ordersSubmitted: 3,
      ordersSucceeded: 0,
      ordersFailed: 0,
      feesCharged: 0,
      feesDue: 0,
      lockOwner: 'gone:1:dead',
      error: null,
      startedAt: started,
      heartbeatAt: started.plus({ seconds: 30 }),
    })

    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, {
      totpSecret: DEMO_ADMIN_TOTP_SECRET,
    })
    await page.getByText('Next release').waitFor()
    await page.goto(`${baseUrl()}/admin/release-runs`)
    const failedRow = page.locator('tbody tr', { hasText: 'ECONNREFUSED after 3 tries' })
    await failedRow.waitFor()
    assert.include(await failedRow.innerText(), 'Failed')
    assert.include(await failedRow.innerText(), DEMO_RELEASE.title)
    assert.include(await failedRow.innerText(), '4 s')
    const deadRow = page.locator('tbody tr', { hasText: 'the process running it stopped' })
    await deadRow.waitFor()
    assert.include(await deadRow.innerText(), 'Interrupted')
    for (const row of [failedRow, deadRow]) {
      const background = await row.evaluate(
        (element) => (globalThis as any).getComputedStyle(element).backgroundColor
      )
      assert.notEqual(background, 'rgba(0, 0, 0, 0)', 'the row is tinted red')
    }
    assert.isAbove(failed.id, 0)
    assert.isAbove(dead.id, 0)
  })

  test('a bot’s late result of an earlier round shows on the order as refused, stale round', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_RELEASE.slug)
    const order = await Order.query()
      .where('product_id', product.id)
      .where('email', DEMO_RELEASE.customers[1].email)
      .firstOrFail()
    // The order is on its second round with the bot; round 1's success arrives late.
    await db.table('release_tasks').insert({
      order_id: order.id,
      product_id: product.id,
      run_id: null,
      engine: 'webhook',
      status: 'submitting',
      submit_attempts: 0,
      round_number: 2,
    })
    await assert.rejects(
      () =>
        orderOutcome.apply(
          { orderId: order.publicId, round: 1, status: 'success', confirmationNumber: 'LATE' },
          { source: 'webhook', actor: { label: 'bot:webhook' }, via: 'webhook' }
        ),
      /round 1/
    )

    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, {
      totpSecret: DEMO_ADMIN_TOTP_SECRET,
    })
    await page.getByText('Next release').waitFor()
    await page.goto(`${baseUrl()}/admin/orders/${order.publicId}/show`)
    await page.getByRole('heading', { name: DEMO_RELEASE.title }).waitFor()
    await page.getByText(`${order.publicId} · round 2`).waitFor()
    const events = page.getByTestId('order-events')
    await events.getByText('Result refused').waitFor()
    const text = await events.textContent()
    assert.include(text, 'stale round: the order was tried again since, round 1')
    assert.include(text, 'bot:webhook')
    await order.refresh()
    assert.equal(order.status, 'pending')
  })

  test('an admin downloads an order ACO file in a chosen format, with a reason', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_RELEASE.slug)
    const customer = DEMO_RELEASE.customers[2]
    const order = await Order.query()
      .where('product_id', product.id)
      .where('email', customer.email)
      .orderBy('id', 'asc')
      .firstOrFail()

    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, {
      totpSecret: DEMO_ADMIN_TOTP_SECRET,
    })
    await page.getByText('Next release').waitFor()
    await page.goto(`${baseUrl()}/admin/orders/${order.publicId}/show`)
    await page.getByRole('heading', { name: DEMO_RELEASE.title }).waitFor()

    await page.getByRole('button', { name: 'ACO JSON' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('combobox', { name: 'Format' }).click()
    await page.getByRole('option', { name: 'CSV' }).click()
    // No reason, no download.
    await dialog.getByRole('button', { name: 'Download' }).click()
    await dialog.getByText('A reason of at least 5 characters is required').waitFor()
    await dialog.getByLabel('Reason').fill('Manual checkout for the retailer queue')

    const downloading = page.waitForEvent('download')
    await dialog.getByRole('button', { name: 'Download' }).click()
    const download = await downloading
    assert.equal(download.suggestedFilename(), `aco-${order.publicId}-csv.csv`)
    const content = await readFile((await download.path())!, 'utf8')
    assert.include(content, order.publicId)
    assert.include(content, customer.card)
    assert.include(content, '456')
    assert.include(content, customer.name)
    await page.getByText('ACO JSON downloaded').waitFor()

    const audit = await AuditLog.query()
      .where('action', 'order.aco_export')
      .where('subject_id', order.publicId)
      .firstOrFail()
    assert.equal(audit.reason, 'Manual checkout for the retailer queue')
    assert.equal(audit.actorLabel, DEMO_ADMIN.email)
    assert.equal((audit.meta as { format: string }).format, 'csv')
    // Nothing in the audit record reveals the card.
    assert.notInclude(JSON.stringify(audit.serialize()), customer.card)
  })
})
