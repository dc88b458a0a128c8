import { test } from '@japa/runner'
import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from 'playwright-core'
import Product from '#catalog/models/product'
import { DEMO_DRAWS } from '#database/seeders/demo_seeder'
import { DEMO_PAST_RELEASE } from '#database/demo/demo_outcomes'
import {
  PHONE,
  readyCustomer,
  saveCardThroughApi,
  signInAs,
  useBrowser,
  waitUntil,
} from './helpers.js'

/** The page as a visitor sees it once it has settled: loaded, and faded in where it fades. */
async function settled(page: Page) {
  await page.locator('main').waitFor()
  await page.waitForLoadState('networkidle')
  await waitUntil(
    page,
    "[...document.querySelectorAll('.product-grid')].every((grid) => getComputedStyle(grid).opacity === '1')"
  )
}

/** What axe-core finds on the page that is serious or critical, one line per rule and node. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`)
    )
}

test.group('Accessibility: axe-core on every screen', (group) => {
  const browser = useBrowser(group)

  test('public screens have no serious or critical violation', async ({ assert }) => {
    const drawn = await Product.findByOrFail('slug', DEMO_DRAWS.drawn.slug)
    const released = await Product.findByOrFail('slug', DEMO_PAST_RELEASE.slug)
    for (const path of [
      '/',
      '/shop',
      '/login',
      '/signup',
      '/forgot',
      '/how-it-works',
      '/testimonials',
      '/refund-policy',
      '/terms',
      `/product/${drawn.id}/draw`,
      '/releases',
      `/releases/${released.id}`,
    ]) {
      const page = await browser.newPage()
      await page.goto(path)
      await settled(page)
      assert.deepEqual(await seriousViolations(page), [], path)
      await page.close()
    }
  })

  test('a signed-in customer’s screens have none either, on a phone too', async ({ assert }) => {
    const product = await Product.findByOrFail('slug', 'nike-air-jordan-1-high-og-chicago')
    const { user } = await readyCustomer()
    for (const viewport of [undefined, PHONE]) {
      const page = await browser.newPage(viewport)
      await saveCardThroughApi(await signInAs(page, user))
      for (const path of [
        `/product/${product.id}`,
        '/user/orders',
        '/user/account',
        '/user/profiles',
      ]) {
        await page.goto(path)
        await settled(page)
        assert.deepEqual(
          await seriousViolations(page),
          [],
          `${path} ${viewport ? 'phone' : 'desktop'}`
        )
      }
      await page.close()
    }
  })
  test('the account tabs fit a 360 px wide phone', async ({ assert }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage({ width: 360, height: 740 })
    await signInAs(page, user)
    await page.goto('/user/account')
    await settled(page)
    const tabs = page.locator('.account__menu a')
    assert.isAbove(await tabs.count(), 2)
    for (const tab of await tabs.all()) {
      const box = await tab.boundingBox()
      assert.isNotNull(box)
      assert.isAtMost(box!.x + box!.width, 360, `${await tab.textContent()} is cut off`)
      assert.isAtLeast(box!.x, 0)
    }
    assert.isAtMost(await page.evaluate<number>('document.documentElement.scrollWidth'), 360)
  })
})
