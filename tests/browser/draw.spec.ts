import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import { DEMO_DRAWS } from '#database/seeders/demo_seeder'
import { readyCustomer, saveCardThroughApi, signInAs, useBrowser } from './helpers.js'

test.group('Storefront: draws', (group) => {
  const browser = useBrowser(group)

  test('a customer enters the open draw; a second entry with the same card is refused', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_DRAWS.open.slug)
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user))
    await page.goto(`/product/${product.id}`)
    await page.getByRole('heading', { name: 'This release is a draw' }).waitFor()
    const record = await db.from('draws').where('product_id', product.id).first()
    assert.include(await page.locator('.draw-box__hash').textContent(), record.commitment)

    await page.getByLabel('Size').selectOption('9')
    await page.getByRole('button', { name: 'Enter draw' }).click()
    await page.getByText('Confirm to enter the draw.').waitFor()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('button', { name: 'Enter draw' }).click()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByRole('button', { name: 'Entered' }).waitFor()
    await page.waitForURL('**/user/orders', { timeout: 20000 })
    const order = page.locator('.order', { hasText: product.title })
    await order.locator('.status', { hasText: 'Entered' }).waitFor()
    const entryLink = order.getByRole('link')
    assert.match((await entryLink.textContent()) ?? '', /^[0-9a-f-]{36}$/)

    // The same card and address from another account: one entry per person.
    const other = await readyCustomer()
    const second = await browser.newPage()
    await saveCardThroughApi(await signInAs(second, other.user))
    await second.goto(`/product/${product.id}`)
    await second.getByLabel('Size').selectOption('9')
    await second.getByRole('button', { name: 'Enter draw' }).click()
    await second.getByRole('button', { name: 'Confirm' }).click()
    await second.getByRole('button', { name: 'Select New Profile' }).waitFor()
    // The card or the address rule, whichever index the database checks first.
    await second.getByText(/is already entered in this draw/).waitFor()
  })

  test('the proof page of a drawn draw recomputes the winners in the browser', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_DRAWS.drawn.slug)
    // Anyone may check a draw: the proof page needs no account.
    const visitor = await browser.newPage()
    await visitor.goto(`/product/${product.id}/draw`)
    await visitor.getByText('Verified in your browser').waitFor()

    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto(`/product/${product.id}`)
    await page.getByRole('heading', { name: 'This draw has run' }).waitFor()
    await page.getByRole('button', { name: 'Entries closed' }).waitFor()
    await page.getByRole('link', { name: 'Check the draw yourself' }).click()
    await page.waitForURL(`**/product/${product.id}/draw`)
    await page.getByText('Verified in your browser').waitFor()
    assert.equal(await page.locator('.draw-proof__list').first().locator('li').count(), 2)
    const record = await db.from('draws').where('product_id', product.id).first()
    assert.include(await page.locator('dd code').nth(1).textContent(), record.seed)
  })
  test('a customer joins the line, sees the countdown, is let through and checks out', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_DRAWS.waitingRoom.slug)
    product.queueOpensAt = DateTime.now().plus({ seconds: 5 })
    await product.save()
    await db.from('queue_lines').where('product_id', product.id).delete()
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user))
    await page.goto(`/product/${product.id}`)
    await page.getByRole('heading', { name: 'Waiting room', exact: true }).waitFor()
    // No Checkout button until the line lets this customer through.
    assert.equal(await page.getByRole('button', { name: 'Checkout' }).count(), 0)
    await page.getByRole('button', { name: 'Join the line' }).click()
    await page.getByText('The sale opens in').waitFor()
    await page.getByLabel('Size').selectOption('9')
    await page.getByRole('button', { name: 'Checkout' }).waitFor({ timeout: 30000 })
    await page.getByRole('button', { name: 'Checkout' }).click()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.waitForURL('**/user/orders', { timeout: 20000 })
    await page
      .locator('.order', { hasText: product.title })
      .locator('.status', { hasText: 'Pending' })
      .waitFor()
  })
})
