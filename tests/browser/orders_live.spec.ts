import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Page } from 'playwright-core'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import User from '#accounts/models/user'
import { checkoutService } from '#checkout/services/checkout_service'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderNumber } from '#orders/services/order_numbers'
import { readyCustomer, saveCardThroughApi, signInAs, useBrowser, waitUntil } from './helpers.js'

/** The storefront polls the orders every 5 s when its live stream is not connected. */
const FALLBACK_POLL_MS = 5000

/** A signed-in customer with a pending order of the hoodie, and a page to follow it in. */
async function pendingOrderOnPage(page: Page) {
  const product = await Product.findByOrFail('slug', 'kith-box-logo-hoodie-nocturnal')
  const { user, profile } = await readyCustomer()
  await saveCardThroughApi(await signInAs(page, user))
  await user.refresh()
  const opened = await checkoutService.checkout(user as User, {
    productId: product.id,
    style: product.styles.split(',')[0],
    size: 'M',
    profileId: profile.publicId,
  })
  return { product, opened }
}

/** Counts the page's calls to the orders list from now on. */
function countOrderFetches(page: Page) {
  const calls: number[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/user/orders') calls.push(Date.now())
  })
  return calls
}

test.group('Storefront: orders follow their status', (group) => {
  const browser = useBrowser(group)
  // The order and its fee are rolled back afterwards: the console's fee totals stay the seed's.
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('an order turns from Pending to Success on screen without a reload', async ({ assert }) => {
    const page = await browser.newPage()
    const { product, opened } = await pendingOrderOnPage(page)
    await page.goto('/user/orders')
    const card = page.locator('.order', { hasText: product.title })
    await card.locator('.status', { hasText: 'Pending' }).waitFor()
    assert.include(await card.textContent(), orderNumber(opened.id))

    const navigations: string[] = []
    page.on('framenavigated', (frame) => navigations.push(frame.url()))
    await orderSettlement.succeed(opened.id, { confirmationNumber: 'RT-LIVE-1' })
    await card.locator('.status', { hasText: 'Success' }).waitFor({ timeout: 20_000 })
    assert.deepEqual(navigations, [], 'no reload')
    // What happened to the money and the retailer's number, in words.
    const facts = await card.locator('.order__facts').textContent()
    assert.include(facts, 'FeeCharged')
    assert.include(facts, 'Retailer confirmationRT-LIVE-1')
    assert.include(facts, '$1.00 check')
    assert.equal(await card.locator('.order__thumb img').count(), 1)
    const order = await Order.findOrFail(opened.id)
    assert.equal(order.status, 'success')
  })

  test('the change arrives over the live stream, sooner than polling could bring it', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    // The page's timers run on a clock the test moves: a polling period passes at once.
    await page.clock.install()
    const { product, opened } = await pendingOrderOnPage(page)
    await page.goto('/user/orders')
    const card = page.locator('.order', { hasText: product.title })
    await card.locator('.status', { hasText: 'Pending' }).waitFor()
    await waitUntil(page, `document.querySelector('ul.orders[data-live="connected"]')`)

    // Connected, the page does not poll: a whole polling period passes without a call.
    const fetches = countOrderFetches(page)
    await page.clock.runFor(FALLBACK_POLL_MS + 1000)
    // A poll the timers started would be sent before this request of the page is answered.
    await page.evaluate(`fetch('/health').then((answer) => answer.text())`)
    assert.lengthOf(fetches, 0, 'no polling while the stream is connected')

    const changedAt = Date.now()
    await orderSettlement.succeed(opened.id, { confirmationNumber: 'RT-LIVE-2' })
    await card.locator('.status', { hasText: 'Success' }).waitFor({ timeout: 3000 })
    assert.isBelow(Date.now() - changedAt, FALLBACK_POLL_MS)
    assert.isAtLeast(fetches.length, 1, 'the announcement made the page refetch')
  })

  test('without the stream the page falls back to polling', async ({ assert }) => {
    const page = await browser.newPage()
    await page.route('**/__transmit/events**', (route) => route.abort())
    const { product, opened } = await pendingOrderOnPage(page)
    await page.goto('/user/orders')
    const card = page.locator('.order', { hasText: product.title })
    await card.locator('.status', { hasText: 'Pending' }).waitFor()
    assert.equal(await page.locator('ul.orders').getAttribute('data-live'), 'polling')

    await orderSettlement.succeed(opened.id, { confirmationNumber: 'RT-LIVE-3' })
    await card.locator('.status', { hasText: 'Success' }).waitFor({ timeout: 20_000 })
  })
})
