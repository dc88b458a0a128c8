import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import type { Page } from 'playwright-core'
import User from '#accounts/models/user'
import Product from '#catalog/models/product'
import { UserFactory } from '#database/factories/user_factory'
import { ProductFactory } from '#database/factories/product_factory'
import Order from '#orders/models/order'
import { customerWithCard, pendingOrder, placeHolds, productFor, profileFor } from '#tests/helpers'
import { makeOrder } from '../../functional/admin/fixtures.js'
import { readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Secret } from 'otpauth'
import { DEMO_ADMIN, DEMO_ADMIN_TOTP_SECRET } from '#database/seeders/demo_seeder'
import { secondFactor } from '#accounts/services/second_factor'
import { authenticatorCode, baseUrl, enterPassword, signIn, useConsolePage } from './chromium.js'
import { clock } from '#core/services/clock'
import { holdCoverage } from '#orders/services/hold_coverage'
import { holdWorker } from '#payments/services/hold_worker'

const PASSWORD = 'correct-horse-battery'

test.group('Admin console in Chromium', (group) => {
  const currentPage = useConsolePage(group)
  let page: Page
  group.each.setup(() => {
    page = currentPage()
  })

  test('an admin signs in, creates a product and the shop lists it', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').merge({ name: 'Ops Lead' }).create()
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()

    await page.goto(`${baseUrl()}/admin/products/create`)
    await page.getByLabel('Title').fill('Browser Test Runner 1')
    await page.getByLabel('Image').fill('/images/products/runner.svg')
    // Brands come from the catalogue's tags; a new one is typed in.
    const brand = page.getByRole('combobox', { name: 'Brand' })
    await brand.click()
    await page.getByRole('option', { name: 'nike', exact: true }).click()
    await brand.fill('stussy')
    await page
      .getByRole('option', { name: /stussy/ })
      .first()
      .click()
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
    assert.equal(product.tags, 'nike,stussy')
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

  test('a new admin must add an authenticator before the console opens', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').create()
    await enterPassword(page, admin.email, PASSWORD)
    await page.getByRole('heading', { name: 'Add an authenticator' }).waitFor()
    const qrCode = page.getByRole('img', { name: 'QR code for your authenticator app' })
    await qrCode.waitFor()
    assert.match((await qrCode.getAttribute('src')) ?? '', /^data:image\/png;base64,/)
    const key = await page.getByLabel('Cannot scan it? Type this key in instead').innerText()
    assert.match(key, /^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/, 'the key in groups of four')
    assert.isNull(await page.evaluate(`localStorage.getItem('dropslot.admin.token')`))
    await page.screenshot({ path: 'tmp/admin-enrol.png', fullPage: true })

    const codeField = page.getByLabel('Authentication code')
    assert.equal(await codeField.getAttribute('autocomplete'), 'one-time-code')
    assert.equal(await codeField.getAttribute('inputmode'), 'numeric')
    await codeField.fill(authenticatorCode(key))
    await page.getByRole('button', { name: 'Verify' }).click()

    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor()
    const codes = await page
      .getByRole('list', { name: 'Recovery codes' })
      .getByRole('listitem')
      .allInnerTexts()
    assert.lengthOf(codes, 10)
    for (const code of codes) assert.match(code, /^[A-Z2-7]{5}-[A-Z2-7]{5}$/)
    await page.getByRole('button', { name: 'I have saved these codes' }).click()
    await page.getByText('Next release').waitFor()
    assert.isNotNull(await page.evaluate(`localStorage.getItem('dropslot.admin.token')`))
    const stored = await db.from('users').where('id', admin.id).first()
    assert.isNotNull(stored.totp_confirmed_at)
  })

  test("the seeded admin signs in with the README's password and the demo secret's code", async ({
    assert,
  }) => {
    const readme = readFileSync(app.makePath('README.md'), 'utf8')
    const row = /\| `admin@dropslot\.test` \| `([^`]+)` \| authenticator secret `([A-Z2-7]+)`/.exec(
      readme
    )
    assert.isNotNull(row, 'the README lists the demo admin')
    const [, password, secret] = row!
    assert.equal(password, DEMO_ADMIN.password)
    assert.equal(secret, DEMO_ADMIN_TOTP_SECRET)

    await enterPassword(page, DEMO_ADMIN.email, password)
    await page.getByRole('heading', { name: 'Enter your authentication code' }).waitFor()
    await page.getByLabel('Authentication code').fill(authenticatorCode(secret))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('Next release').waitFor()
    assert.match(page.url(), /\/admin\/?$/)
  })

  test('a wrong code says so and the console stays closed', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').create()
    const secret = new Secret({ size: 20 }).base32
    await secondFactor.enrolKnownSecret(admin.id, secret)
    await secondFactor.newRecoveryCodes(admin.id)
    const now = clock.nowMs()
    const valid = [-30_000, 0, 30_000].map((shift) => authenticatorCode(secret, now + shift))
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code))!

    await enterPassword(page, admin.email, PASSWORD)
    await page.getByRole('heading', { name: 'Enter your authentication code' }).waitFor()
    await page.getByLabel('Authentication code').fill(wrong)
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('That code is not valid. Enter the current 6-digit code.').waitFor()
    assert.isNull(await page.evaluate(`localStorage.getItem('dropslot.admin.token')`))

    await page.getByRole('button', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').fill('AAAAA-BBBBB')
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('That recovery code is not valid or was used already.').waitFor()
    assert.isNull(await page.evaluate(`localStorage.getItem('dropslot.admin.token')`))
    assert.lengthOf(await User.accessTokens.all(admin), 1, 'only the password-only token')

    // Cancel revokes the half-finished sign-in and goes back to the password.
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('textbox', { name: 'Password' }).waitFor()
    assert.equal(await page.getByLabel('E-mail').inputValue(), admin.email)
    assert.lengthOf(await User.accessTokens.all(admin), 0)
    await page.goto(`${baseUrl()}/admin/products`)
    await page.getByRole('button', { name: /sign in/i }).waitFor()
    assert.match(page.url(), /\/admin\/login$/)
  })

  test('a signed-out visitor is sent to the sign-in page once, not in a loop', async ({
    assert,
  }) => {
    // Runs in the page (the server's types know no DOM): counts the history entries pushed.
    type CountedPage = {
      pushes: number
      history: { pushState: (...args: unknown[]) => void }
    }
    await page.addInitScript(() => {
      const counted = globalThis as unknown as CountedPage
      counted.pushes = 0
      const push = counted.history.pushState.bind(counted.history)
      counted.history.pushState = (...args: unknown[]) => {
        counted.pushes++
        push(...args)
      }
    })
    await page.goto(`${baseUrl()}/admin`)
    await page.getByLabel('E-mail').waitFor()
    const pushes = await page.evaluate(() => (globalThis as unknown as CountedPage).pushes)
    // One redirect to /login; a loop of redirects keeps the page from answering for seconds.
    assert.isAtMost(pushes, 2)
  })

  test('a wrong password says so', async () => {
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, 'not-the-password')
    await page.getByText('Email or password is incorrect.').waitFor()
  })

  test('an admin marks an order successful and sees the fee in the ledger', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').create()
    const { order, product } = await pendingOrder({
      product: { title: 'Ledger Runner', priceCents: 3500 },
    })
    await placeHolds()
    // Orders are marked by hand once their release has dropped.
    await product.merge({ releaseAt: DateTime.now().minus({ minutes: 1 }) }).save()
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()

    await page.goto(`${baseUrl()}/admin/orders/${order.publicId}/show`)
    await page.getByRole('heading', { name: 'Ledger Runner' }).waitFor()
    const ledger = page.getByTestId('ledger')
    await ledger.getByText('$1.00 hold').waitFor()

    await page.getByRole('button', { name: 'Mark success' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Retailer confirmation number').fill('NK-BROWSER-1')
    await dialog.getByRole('button', { name: 'Mark success' }).click()

    await page.getByText('Order marked Success').waitFor()
    await ledger.getByText('Service fee').waitFor()
    await ledger.getByText('Hold released').waitFor()
    await page.getByText('NK-BROWSER-1', { exact: true }).waitFor()
    // The status chip next to the title says Success; the mark buttons are gone.
    await page.locator('.MuiChip-root', { hasText: 'Success' }).first().waitFor()
    assert.equal(await page.getByRole('button', { name: 'Mark success' }).count(), 0)
    assert.include(await ledger.innerText(), '$35.00')
    await page.screenshot({ path: 'tmp/admin-order-marked.png', fullPage: true })

    await order.refresh()
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'paid')
    assert.equal(order.confirmationNumber, 'NK-BROWSER-1')

    // A part of the fee back: the refund waits for a reason of three characters or more.
    await page.getByRole('button', { name: 'Refund fee' }).click()
    const refund = page.getByRole('dialog')
    await refund.getByLabel('Amount in dollars (optional)').fill('10')
    const confirmRefund = refund.getByRole('button', { name: 'Refund fee' })
    assert.isTrue(await confirmRefund.isDisabled())
    await refund.getByLabel('Reason (audit log)').fill('Late delivery, goodwill')
    await confirmRefund.click()
    // The notice, not the order's timeline, which says the same once it has reloaded.
    await page.locator('.MuiSnackbarContent-message', { hasText: 'Fee refunded' }).waitFor()
    await ledger.getByText('$10.00').waitFor()
    const refunds = await db
      .from('payment_ledger')
      .where('order_id', order.id)
      .where('kind', 'refund')
    assert.deepEqual(
      refunds.map((row) => [row.amount_cents, row.status]),
      [[1000, 'succeeded']]
    )

    // The dashboard's money cards read the ledger: the fee is captured (with the fees of the
    // demo's settled past release), nothing is due.
    const { paymentService } = await import('#payments/services/payment_service')
    const totals = await paymentService.totals()
    const expected = (totals.capturedCents / 100).toLocaleString('en-US', {
      style: 'currency',
      currency: 'USD',
    })
    await page.getByRole('menuitem', { name: 'Dashboard' }).click()
    const captured = page.locator('.MuiCard-root', { hasText: 'Fees captured' })
    await captured.getByText(expected, { exact: true }).waitFor()
    await page
      .locator('.MuiCard-root', { hasText: 'Fees due' })
      .getByText('$0.00', { exact: true })
      .waitFor()
    // The job queues: the embedded driver, and the work due in the tables.
    const queues = page.getByTestId('queues-card')
    await queues.getByText('Jobs run inside the web process (QUEUE_DRIVER=database)').waitFor()
    await queues.getByRole('cell', { name: 'Holds to place' }).waitFor()
    await queues.getByRole('cell', { name: 'E-mails to send' }).waitFor()
    await page.screenshot({ path: 'tmp/admin-dashboard.png', fullPage: true })
  })

  test('an admin cancels a pending order with a reason, kept in the audit log', async ({
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    const { order } = await pendingOrder({ product: { title: 'Cancel Runner' } })
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()

    await page.goto(`${baseUrl()}/admin/orders/${order.publicId}/show`)
    await page.getByRole('heading', { name: 'Cancel Runner' }).waitFor()
    await page.getByRole('button', { name: 'Cancel order' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Cancel this order?').waitFor()
    // Keeping the order closes the dialog and changes nothing.
    await dialog.getByRole('button', { name: 'Keep the order' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Cancel order' }).click()
    await dialog.getByLabel('Reason').fill('Customer asked by phone')
    await dialog.getByRole('button', { name: 'Cancel order' }).click()
    await page.locator('.MuiSnackbarContent-message', { hasText: 'Order cancelled' }).waitFor()

    await order.refresh()
    assert.equal(order.status, 'cancelled')
    const audit = await db
      .from('audit_logs')
      .where('subject_id', order.publicId)
      .where('action', 'order.cancel')
    assert.deepEqual(
      audit.map((row) => row.reason),
      ['Customer asked by phone']
    )
  })

  test('the dashboard shows waiting orders without a live hold, then the renewals', async ({
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    await pendingOrder()
    await placeHolds()
    // A week on, nothing renewed yet: every waiting order's hold has lapsed.
    clock.travel(170 * 3_600_000)
    const lapsed = await holdCoverage()
    assert.isAtLeast(lapsed.waitingWithoutLiveHold, 1)
    await signIn(page, admin.email, PASSWORD)
    const card = page.getByTestId('holds-card')
    await card.getByText('$1.00 card checks of waiting orders').waitFor()
    assert.equal(
      await card.getByTestId('holds-without-live').innerText(),
      String(lapsed.waitingWithoutLiveHold)
    )
    await card.getByText(`lapsed: ${lapsed.withoutLiveHoldByStatus.lapsed}`).waitFor()

    const report = await holdWorker.runOnce({ limit: 500 })
    assert.isAtLeast(report.renewed, 1)
    await page.reload()
    await card.getByTestId('holds-renewed').waitFor()
    const covered = await holdCoverage()
    assert.equal(
      await card.getByTestId('holds-without-live').innerText(),
      String(covered.waitingWithoutLiveHold)
    )
    assert.equal(await card.getByTestId('holds-renewed').innerText(), String(report.renewed))
    await card.getByRole('columnheader', { name: 'Round' }).waitFor()
    await page.screenshot({ path: 'tmp/admin-dashboard-holds.png', fullPage: true })
  })

  test('an admin creates an order for the demo customer from the console', async ({ assert }) => {
    const admin = await UserFactory.apply('admin').create()
    const { user } = await customerWithCard(undefined, {
      name: 'Demo Customer',
      email: 'demo.customer@example.test',
    })
    const profile = await profileFor(user, { profileName: 'Home' })
    const product = await productFor({
      title: 'Console Drop 1',
      totalStock: 10,
      stockTaken: 0,
    })
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()

    await page.goto(`${baseUrl()}/admin/orders/create`)
    await page.getByRole('combobox', { name: 'Customer' }).fill('Demo')
    await page.getByRole('option', { name: /Demo Customer/ }).click()
    await page.getByRole('combobox', { name: 'Product' }).fill('Console Drop')
    await page.getByRole('option', { name: /Console Drop 1/ }).click()
    await page.getByRole('combobox', { name: 'Profile' }).click()
    await page.getByRole('option', { name: /Home/ }).click()
    await page.getByRole('combobox', { name: 'Size' }).click()
    await page.getByRole('option', { name: '9', exact: true }).click()
    await page.getByRole('combobox', { name: 'Style' }).click()
    await page.getByRole('option', { name: 'White', exact: true }).click()
    await page.getByRole('button', { name: 'Save' }).click()

    // Redirected to the new order's page.
    await page.getByRole('heading', { name: 'Console Drop 1' }).waitFor()
    await page.getByRole('button', { name: 'Cancel order' }).waitFor()
    const order = await Order.query().where('product_id', product.id).firstOrFail()
    assert.equal(order.userId, user.id)
    assert.equal(order.profileId, profile.publicId)
    assert.equal(order.size, '9')
    assert.equal(order.style, 'White')
    assert.equal(order.status, 'pending')
    assert.include(page.url(), order.publicId)
  })
})
