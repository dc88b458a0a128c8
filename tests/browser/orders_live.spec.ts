import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import Product from '#catalog/models/product'
import Order from '#orders/models/order'
import { checkoutService } from '#checkout/services/checkout_service'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderNumber } from '#orders/services/order_numbers'
import { readyCustomer, saveCardThroughApi, signInAs, useBrowser } from './helpers.js'

test.group('Storefront: orders follow their status', (group) => {
  const browser = useBrowser(group)
  // The order and its fee are rolled back afterwards: the console's fee totals stay the seed's.
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('an order turns from Pending to Success on screen without a reload', async ({ assert }) => {
    const product = await Product.findByOrFail('slug', 'kith-box-logo-hoodie-nocturnal')
    const { user, profile } = await readyCustomer()
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user))
    await user.refresh()
    const opened = await checkoutService.checkout(user, {
      productId: product.id,
      style: product.styles.split(',')[0],
      size: 'M',
      profileId: profile.publicId,
    })
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
})
