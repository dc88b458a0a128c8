import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import { clock } from '#core/services/clock'
import { DEMO_DRAWS } from '#database/seeders/demo_seeder'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import { roundTime } from '#shared/draw'
import { productFor } from '#tests/helpers'
import { startRecordedRelay } from '#tests/support/draws'
import { readyCustomer, saveCardThroughApi, signInAs, useBrowser } from './helpers.js'

test.group('Storefront: draws', (group) => {
  const browser = useBrowser(group)
  group.each.teardown(() => clock.reset())

  test('a customer enters a draw, a second entry with the same card is refused, and after the close the customer checks their entry from the order page', async ({
    assert,
  }) => {
    const product = await productFor({
      title: 'Inclusion Check Draw',
      releaseMode: 'draw',
      entryOpensAt: DateTime.now().minus({ hours: 1 }).startOf('second'),
      entryClosesAt: DateTime.now().plus({ minutes: 2 }).startOf('second'),
      totalStock: 1,
      stockTaken: 0,
    })
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user), '5555555555554444')
    await page.goto(`/product/${product.id}`)
    await page.getByRole('heading', { name: 'This release is a draw' }).waitFor()
    // Plain words first; the commitment and the round behind Verify.
    await page.getByText('The winners are drawn after entries close').waitFor()
    assert.isFalse(await page.locator('.draw-box__hash').isVisible())
    await page.locator('.draw-box summary', { hasText: 'Verify' }).click()
    // The commitment is written when the draw is first read, beside the product's own answer:
    // the stored one is read once the page shows one.
    await page.locator('.draw-box__hash', { hasNotText: 'not yet made' }).waitFor()
    const record = await db.from('draws').where('product_id', product.id).first()
    await page.locator('.draw-box__hash', { hasText: record.commitment }).waitFor()
    assert.include(await page.locator('.draw-box').textContent(), `round ${record.beacon_round}`)

    await page.getByLabel('Size').selectOption('9')
    await page.getByRole('button', { name: 'Enter draw' }).click()
    await page.getByText('Confirm to enter the draw.').waitFor()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByRole('button', { name: 'Entered' }).waitFor()
    await page.waitForURL('**/user/orders', { timeout: 20000 })
    const order = page.locator('.order', { hasText: product.title })
    await order.locator('.status', { hasText: 'Entered' }).waitFor()
    // The entry's id is not shown raw: the link verifies it.
    const entryLink = order.getByRole('link', { name: 'Verify your entry' })
    const entryHref = (await entryLink.getAttribute('href')) ?? ''
    const entryId = new URL(entryHref, 'http://storefront.test').searchParams.get('entry') ?? ''
    assert.match(entryId, /^[0-9a-f-]{36}$/)
    assert.notInclude(await order.textContent(), entryId)

    // The same card on file from another account, shipping elsewhere: one entry per card.
    const elsewhere = {
      address1: '9 Elsewhere Ave',
      address2: '',
      firstName: 'Other',
      lastName: 'Buyer',
      city: 'Chicago',
      zip: '60601',
      state: 'IL',
      country: 'US',
    }
    const other = await readyCustomer('Home', { shipping: elsewhere, billing: elsewhere })
    const second = await browser.newPage()
    await saveCardThroughApi(await signInAs(second, other.user), '5555555555554444')
    await second.goto(`/product/${product.id}`)
    await second.getByLabel('Size').selectOption('9')
    await second.getByRole('button', { name: 'Enter draw' }).click()
    await second.getByRole('button', { name: 'Confirm' }).click()
    // The card counted is the card on file: another profile cannot help, another card can.
    await second.getByRole('button', { name: 'Card Already Entered' }).waitFor()
    assert.equal(await second.getByRole('button', { name: 'Select New Profile' }).count(), 0)
    await second
      .getByText(
        'Your card on file (Mastercard •••• 4444) is already entered in this draw: one entry per card. To enter with another card, change the card on file in your account.'
      )
      .waitFor()
    await second.getByRole('link', { name: 'Change the card on file' }).waitFor()

    // Entries close (the server's clock); the customer follows the link on their order.
    clock.travel(3 * 60_000)
    await page.reload()
    await page
      .locator('.order', { hasText: product.title })
      .getByRole('link', { name: 'Verify your entry' })
      .click()
    await page.waitForURL(`**/product/${product.id}/draw?entry=${entryId}`)
    const mine = page.locator('.draw-proof__check', { hasText: 'Your entry: Checked' })
    await mine.waitFor({ timeout: 30000 })
    assert.include(await mine.textContent(), `Entry ${entryId} is number 1 of 1`)
    await page.locator('.draw-proof__entries .draw-proof__mine', { hasText: entryId }).waitFor()
    await page.getByText('Everything published so far checks out').waitFor()
  }).timeout(180_000)

  test('the proof page of the drawn draw checks everything in the browser, without an account', async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_DRAWS.drawn.slug)
    const visitor = await browser.newPage()
    await visitor.goto(`/product/${product.id}/draw`)
    await visitor.getByText('Verified in your browser').waitFor({ timeout: 30000 })
    for (const step of ['Commitment', 'Seed', 'Public randomness', 'Entry list', 'Result']) {
      await visitor.locator('.draw-proof__check', { hasText: `${step}: Checked` }).waitFor()
    }
    assert.include(
      await visitor.locator('.draw-proof__facts').textContent(),
      RECORDED_ROUNDS[657413].randomness
    )
    assert.equal(await visitor.locator('.draw-proof__list').first().locator('li').count(), 2)

    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto(`/product/${product.id}`)
    await page.getByRole('heading', { name: 'This draw has run' }).waitFor()
    await page.getByRole('button', { name: 'Entries closed' }).waitFor()
    await page.getByRole('link', { name: 'Check the draw yourself' }).click()
    await page.waitForURL(`**/product/${product.id}/draw`)
    await page.getByText('Verified in your browser').waitFor({ timeout: 30000 })
  })

  test('a customer joins the line, gets a place drawn from the beacon, checks it and checks out', async ({
    assert,
  }) => {
    const relay = await startRecordedRelay()
    try {
      const { user } = await readyCustomer()
      const page = await browser.newPage()
      await saveCardThroughApi(await signInAs(page, user), '4000056655665556')
      // The sale opens when recorded quicknet round 657413 is out; it is 5 minutes before.
      const opensAt = roundTime(657413) * 1000
      const product = await productFor({
        title: 'Line Check Drop',
        totalStock: 10,
        stockTaken: 0,
        releaseAt: DateTime.fromMillis(opensAt + 3 * 86_400_000),
        queueOpensAt: DateTime.fromMillis(opensAt),
        queueMinutes: 10,
        queueRatePerMinute: 30,
      })
      clock.freeze(opensAt - 5 * 60_000)
      await page.clock.setFixedTime(new Date(clock.nowMs()))
      await page.goto(`/product/${product.id}`)
      await page.getByRole('heading', { name: 'Waiting room', exact: true }).waitFor()
      assert.equal(await page.getByRole('button', { name: 'Checkout' }).count(), 0)
      await page.getByRole('button', { name: 'Join the line' }).click()
      await page.getByText('The sale opens in').waitFor()
      await page.locator('.waiting-room summary', { hasText: 'Verify' }).click()
      await page.getByText('from drand quicknet round 657413').waitFor()
      // The server remembers the buyer in line: a reload shows the place, not the join button.
      await page.reload()
      await page.getByText('The sale opens in').waitFor()
      assert.equal(await page.getByRole('button', { name: 'Join the line' }).count(), 0)

      clock.freeze(opensAt + 1000)
      await page.clock.setFixedTime(new Date(clock.nowMs()))
      await page.getByLabel('Size').selectOption('9')
      await page.getByRole('button', { name: 'Checkout' }).waitFor({ timeout: 30000 })
      const placeLink = page.getByRole('link', { name: 'Check your place' })
      const href = (await placeLink.getAttribute('href')) ?? ''
      await page.getByRole('button', { name: 'Checkout' }).click()
      await page.getByRole('button', { name: 'Confirm' }).click()
      await page.waitForURL('**/user/orders', { timeout: 20000 })
      await page
        .locator('.order', { hasText: product.title })
        .locator('.status', { hasText: 'Pending' })
        .waitFor()

      await page.goto(href)
      await page.getByText('Your place, recomputed here: 1 of 1.').waitFor({ timeout: 30000 })
      await page.getByText(/Verified in your browser: the 1 places/).waitFor()
    } finally {
      await relay.close()
    }
  }).timeout(180_000)
})
