import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser, Page } from 'playwright-core'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_DRAWS } from '#database/seeders/demo_seeder'
import { assertConsoleBuilt, baseUrl, launchChromium, signIn } from './chromium.js'

test.group('Admin console: draws in Chromium', (group) => {
  let browser: Browser
  let page: Page

  group.setup(async () => {
    assertConsoleBuilt()
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    const cleanup = await testUtils.db().withGlobalTransaction()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    page.setDefaultTimeout(60_000)
    return async () => {
      await page.close()
      await cleanup()
    }
  })

  test('the draw view shows entries, refusals, the commitment and the verified result', async ({
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, 'correct-horse-battery')
    await page.getByText('Next release').waitFor()
    const drawn = await Product.findByOrFail('slug', DEMO_DRAWS.drawn.slug)
    await page.goto(`${baseUrl()}/admin/products/${drawn.id}/show`)
    const panel = page.getByTestId('draw-panel')
    await panel.getByText('Recomputed from the published proof: it matches.').waitFor()
    const record = await db.from('draws').where('product_id', drawn.id).first()
    assert.include(await panel.textContent(), record.commitment)
    assert.include(await panel.textContent(), 'Entries: 4')
    assert.equal(await panel.locator('ol li').count(), 2)
  })

  test('an admin runs a draw whose entries have closed, once', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, 'correct-horse-battery')
    await page.getByText('Next release').waitFor()
    const open = await Product.findByOrFail('slug', DEMO_DRAWS.open.slug)
    open.entryClosesAt = DateTime.now().minus({ minutes: 1 })
    await open.save()
    await page.goto(`${baseUrl()}/admin/products/${open.id}/show`)
    const panel = page.getByTestId('draw-panel')
    await panel.getByText('Not drawn yet').waitFor()
    await panel.getByRole('button', { name: 'Run draw' }).click()
    await page.getByText(/Drawn: \d+ winner\(s\) of \d+ entries/).waitFor()
    await panel.getByText('Recomputed from the published proof: it matches.').waitFor()
    const record = await db.from('draws').where('product_id', open.id).first()
    assert.isNotNull(record.drawn_at)
  })
})
