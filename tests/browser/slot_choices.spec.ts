import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import { readyCustomer, saveCardThroughApi, signInAs, useBrowser } from './helpers.js'

test.group('Storefront: one slot, every chance', (group) => {
  const browser = useBrowser(group)

  test('a buyer adds backup sizes and a price cap at checkout, sees them on the orders page and changes them', async ({
    assert,
  }) => {
    const { user } = await readyCustomer('Ladder')
    const product = await Product.findByOrFail('slug', 'kith-new-balance-990v6-daytona')
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user))

    await page.goto(`/product/${product.id}`)
    await page.getByLabel('Size', { exact: true }).selectOption('10')
    const more = page.getByRole('button', { name: 'More chances' })
    assert.equal(await more.getAttribute('aria-expanded'), 'false')
    await more.click()
    assert.equal(await more.getAttribute('aria-expanded'), 'true')
    const backup = page.getByLabel('Add a backup size')
    await backup.selectOption('10.5')
    await backup.selectOption('9.5')
    // Both retailers of the release are offered, each ticked.
    assert.isTrue(await page.getByLabel('Kith', { exact: true }).isChecked())
    assert.isTrue(await page.getByLabel('New Balance', { exact: true }).isChecked())
    await page.getByLabel('Most you will pay the retailer, with shipping').fill('250')
    await page
      .getByText('One slot, one fee: tried in sizes 10, then 10.5, then 9.5', { exact: false })
      .waitFor()

    await page.getByRole('button', { name: 'Checkout' }).click()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.waitForURL('**/user/orders', { timeout: 20_000 })

    const order = page.locator('.order', { hasText: product.title }).first()
    await order.getByText('10, then 10.5, then 9.5').waitFor()
    await order.getByText('Up to $250.00 for the item with shipping').waitFor()
    const row = await db
      .from('orders')
      .where('user_id', user.id)
      .where('product_id', product.id)
      .firstOrFail()
    assert.equal(row.size_ladder, '["10","10.5","9.5"]')
    assert.equal(Number(row.max_item_price_cents), 25_000)

    await order.getByRole('button', { name: 'Change sizes and cap' }).click()
    await order.getByRole('button', { name: 'Remove size 9.5' }).click()
    await order.getByLabel('New Balance', { exact: true }).uncheck()
    await order.getByRole('button', { name: 'Save choices' }).click()
    await order.getByText('Your choices are saved.').waitFor()
    await order.getByText('10, then 10.5').waitFor()

    const changed = await db.from('orders').where('id', row.id).firstOrFail()
    assert.equal(changed.size_ladder, '["10","10.5"]')
    assert.equal(changed.retailer_choice, '["kith"]')
  })
})
