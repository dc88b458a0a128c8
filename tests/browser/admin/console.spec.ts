import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser, Page } from 'playwright-core'
import User from '#accounts/models/user'
import Product from '#catalog/models/product'
import { UserFactory } from '#database/factories/user_factory'
import { ProductFactory } from '#database/factories/product_factory'
import { makeOrder } from '../../functional/admin/fixtures.js'
import { assertConsoleBuilt, baseUrl, launchChromium, signIn } from './chromium.js'

const PASSWORD = 'correct-horse-battery'

test.group('Admin console in Chromium', (group) => {
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
    // The machines are shared and slow under load: waits are generous, never timed assertions.
    page.setDefaultTimeout(60_000)
    return async () => {
      await page.close()
      await cleanup()
    }
  })

  test('an admin signs in, creates a product and the shop lists it', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').merge({ name: 'Ops Lead' }).create()
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()

    await page.goto(`${baseUrl()}/admin/products/create`)
    await page.getByLabel('Title').fill('Browser Test Runner 1')
    await page.getByLabel('Image').fill('/images/products/runner.svg')
    await page.getByRole('checkbox', { name: 'nike' }).check()
    await page.getByRole('tab', { name: 'Release & slots' }).click()
    await page.getByLabel('Fee').fill('27.5')
    await page.getByLabel('Total slots').fill('120')
    await page.getByRole('tab', { name: 'Sizes & styles' }).click()
    await page.getByRole('radio', { name: 'Clothing (XS-XL)' }).check()
    await page.getByRole('checkbox', { name: 'XL', exact: true }).uncheck()
    await page.getByRole('textbox', { name: 'Styles' }).fill('Black,Bone')
    await page.getByRole('button', { name: 'Save' }).click()

    // Back on the list, with the new product in it.
    await page.getByRole('cell', { name: /Browser Test Runner 1/ }).waitFor()
    const product = await Product.findByOrFail('title', 'Browser Test Runner 1')
    assert.equal(product.priceCents, 2750)
    assert.equal(product.totalStock, 120)
    assert.deepEqual(product.sizes, ['XS', 'S', 'M', 'L'])
    assert.equal(product.tags, 'nike')
    assert.equal(product.styles, 'Black,Bone')

    const shop = (await fetch(`${baseUrl()}/api/products`).then((response) =>
      response.json()
    )) as Array<{
      productTitle: string
    }>
    assert.include(
      shop.map((row) => row.productTitle),
      'Browser Test Runner 1'
    )
  })

  test('editing keeps total slots above the slots taken, then saves', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').create()
    const product = await ProductFactory.merge({
      title: 'Edit Me',
      totalStock: 50,
      stockTaken: 30,
      priceCents: 2500,
    }).create()
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()
    await page.goto(`${baseUrl()}/admin/products/${product.id}`)
    await page.getByLabel('Title').waitFor()
    await page.getByRole('tab', { name: 'Release & slots' }).click()
    await page.getByLabel('Total slots').fill('20')
    await page.getByLabel('Fee').fill('31')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Must be at least the 30 slots already taken').first().waitFor()
    await product.refresh()
    assert.equal(product.totalStock, 50, 'nothing saved while the form is invalid')

    await page.getByLabel('Total slots').fill('40')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('cell', { name: /Edit Me/ }).waitFor()
    await product.refresh()
    assert.equal(product.totalStock, 40)
    assert.equal(product.priceCents, 3100)
    assert.equal(product.stockTaken, 30)
  })

  test('server-side refusals show clearly: deleting a product with active orders', async ({
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    const product = await ProductFactory.merge({ title: 'Hot Drop', stockTaken: 1 }).create()
    await makeOrder({ product, status: 'pending' })
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()
    await page.goto(`${baseUrl()}/admin/products/${product.id}`)
    await page.getByLabel('Title').waitFor()
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
    await page.getByText(/"Hot Drop" has 1 active order/).waitFor()
    assert.isNotNull(await Product.find(product.id))
  })

  test('a customer is refused at sign-in and their token is revoked', async ({ assert }) => {
    const customer = await UserFactory.create()
    await signIn(page, customer.email, PASSWORD)
    await page.getByText(/for Dropslot admins only/).waitFor()
    assert.isNull(await page.evaluate(`localStorage.getItem('dropslot.admin.token')`))
    const tokens = await User.accessTokens.all(customer)
    assert.lengthOf(tokens, 0)
    assert.match(page.url(), /\/admin\/login$/)
  })

  test('a wrong password says so', async () => {
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, 'not-the-password')
    await page.getByText('Email or password is incorrect.').waitFor()
  })
})
