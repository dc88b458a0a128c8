import { test } from '@japa/runner'
import User from '#accounts/models/user'
import Product from '#catalog/models/product'
import { DEMO_CUSTOMER } from '#database/seeders/demo_seeder'
import { DEMO_PAST_RELEASE } from '#database/demo/demo_outcomes'
import { PHONE, signInAs, useBrowser } from './helpers.js'

test.group('Release results in the storefront', (group) => {
  const browser = useBrowser(group)

  test('a visitor finds the past release from the footer and reads its report', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    const product = await Product.findByOrFail('slug', DEMO_PAST_RELEASE.slug)
    await page.goto('/shop')
    await page.getByRole('contentinfo').getByRole('link', { name: 'Release results' }).click()
    await page.getByRole('heading', { name: 'Release results', level: 1 }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/releases')
    const retailer = page.getByRole('row', { name: /adidas/i })
    await retailer.waitFor()
    const item = page.locator('.releases__item', { hasText: DEMO_PAST_RELEASE.title })
    assert.include(await item.textContent(), '40.0 % succeeded (4 of 10 submitted)')

    await item.getByRole('link', { name: DEMO_PAST_RELEASE.title }).click()
    await page.getByRole('heading', { name: DEMO_PAST_RELEASE.title, level: 1 }).waitFor()
    assert.equal(new URL(page.url()).pathname, `/releases/${product.id}`)
    const facts = await page.locator('.report__facts').textContent()
    for (const fact of ['Slots40', 'Orders10', 'Submitted10', 'Succeeded4', 'Success rate40.0 %']) {
      assert.include(facts, fact)
    }
    assert.include(
      await page.locator('.report__reasons').textContent(),
      'Cancelled by the retailer after success: 1'
    )
    assert.equal(await page.locator('.report-line').count(), 10)
    assert.equal(await page.locator('.report-line--mine').count(), 0, 'nobody is signed in')
    assert.equal(await page.locator('.report__checks li').count(), 2)
    const text = await page.locator('main').textContent()
    assert.notInclude(text, DEMO_CUSTOMER.email)
    assert.notInclude(text, 'Jordan')
  })

  test('the demo customer sees their own orders highlighted, on a phone too', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_PAST_RELEASE.slug)
    const customer = await User.findByOrFail('email', DEMO_CUSTOMER.email)
    for (const viewport of [undefined, PHONE]) {
      const page = await browser.newPage(viewport)
      await signInAs(page, customer)
      // From their orders page: a final order links to how its release went. The sold-out one
      // says what happened and that nothing was charged, never Refunded.
      await page.goto('/user/orders')
      const lost = page.locator('.order[data-status="fail"]', { hasText: DEMO_PAST_RELEASE.title })
      await lost.locator('.status', { hasText: 'Not secured' }).waitFor()
      await lost
        .getByText('Not secured: sold out. Nothing charged; your $1.00 check was released.')
        .waitFor()
      assert.notInclude(await lost.textContent(), 'Refunded')
      const card = page.locator('.order', { hasText: DEMO_PAST_RELEASE.title }).first()
      await card.getByRole('link', { name: 'How this release went' }).click()
      await page.getByRole('heading', { name: DEMO_PAST_RELEASE.title, level: 1 }).waitFor()
      assert.equal(new URL(page.url()).pathname, `/releases/${product.id}`)
      const notice = page.locator('.report__mine')
      await notice.waitFor()
      assert.include(await notice.textContent(), 'Size 10: Succeeded')
      assert.include(
        await notice.textContent(),
        'Size 10: Not secured: sold out. Nothing charged; your $1.00 check was released.'
      )
      assert.notInclude(await page.locator('main').textContent(), 'Failed (')
      const mine = page.locator('.report-line--mine')
      assert.equal(await mine.count(), 2)
      assert.equal(await mine.first().getAttribute('aria-current'), 'true')
      assert.include(await mine.first().textContent(), 'Yours')
      const overflow = await page.evaluate<boolean>(
        'document.documentElement.scrollWidth > document.documentElement.clientWidth'
      )
      assert.isFalse(overflow, `no sideways scroll ${viewport ? 'on a phone' : ''}`)
    }
  })

  test('a release still waiting for results says its report is not out yet', async ({ assert }) => {
    const page = await browser.newPage()
    const waiting = await Product.findByOrFail('slug', 'new-balance-990v6-release-day-demo')
    await page.goto(`/releases/${waiting.id}`)
    const notice = page.getByRole('status').filter({ hasText: 'published once' })
    await notice.waitFor()
    assert.include(await notice.textContent(), 'published once every order has its result')
  })
})
