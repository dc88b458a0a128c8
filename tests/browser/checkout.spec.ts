import { test } from '@japa/runner'
import type { Page } from 'playwright-core'
import Product from '#catalog/models/product'
import User from '#accounts/models/user'
import Profile from '#profiles/models/profile'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { cardVault } from '#core/services/card_vault'
import { sqlTime } from '#core/helpers/sql_time'
import { cardCodeRetention } from '#profiles/services/card_code_retention'
import { UserFactory } from '#database/factories/user_factory'
import { ProductFactory } from '#database/factories/product_factory'
import { DEMO_PROMO } from '#database/seeders/demo_seeder'
import { CARD_WORDS } from '#shared/vocabulary'
import {
  DESKTOP,
  PHONE,
  readyCustomer,
  saveCardThroughApi,
  signInAs,
  uniqueEmail,
  useBrowser,
  waitUntil,
} from './helpers.js'

/** Sign up, billing address, card, then the shop filtered to Nike and a product opened. */
async function signUpToProduct(page: Page, viewport: typeof DESKTOP) {
  const email = uniqueEmail('journey')
  await page.goto('/signup')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('journey-pass-123')
  await page.getByLabel('Phone').pressSequentially('2125550111')
  await page.getByLabel('First Name').fill('Alex')
  await page.getByLabel('Last Name').fill('Morgan')
  await page.getByRole('button', { name: 'Create account' }).click()

  await page.waitForURL('**/addBilling')
  await page.getByRole('heading', { name: 'Add your Billing Address' }).waitFor()
  await page.getByLabel('Address', { exact: true }).fill('148 Lafayette St')
  await page.getByLabel('City').fill('New York')
  await page.getByLabel('Zip Code').fill('10013')
  await page.getByLabel('State', { exact: true }).selectOption('NY')
  await page.getByRole('button', { name: 'Continue' }).click()

  await page.waitForURL('**/addCard')
  // Saving is free, and the card is the one the $1.00 check and the fee go on.
  await page.getByText(CARD_WORDS.saving).waitFor()
  await page.getByLabel('Card Number').pressSequentially('4242 4242 4242 4242')
  await page.getByLabel('MM/YY').pressSequentially('1230')
  await page.getByLabel('CVV').fill('123')
  await page.getByRole('button', { name: 'Add and Shop' }).click()

  await page.waitForURL('**/shop')
  await page.locator('.product-grid.is-revealed').waitFor()
  if (viewport === PHONE) await page.getByLabel('Brand', { exact: true }).selectOption('nike')
  else await page.getByRole('button', { name: 'Nike', exact: true }).click()
  const product = await Product.findByOrFail('slug', 'nike-air-jordan-1-high-og-chicago')
  await page.locator('.product-card', { hasText: product.title }).click()
  await page.waitForURL(`**/product/${product.id}`)
  return { email, product }
}

async function checkOut(page: Page, size: string) {
  await page.getByLabel('Size').selectOption(size)
  await page.getByRole('button', { name: 'Checkout' }).click()
  await page.getByRole('button', { name: 'Cancel' }).waitFor()
  // The $1.00 check and the fee go on the account's card on file, not on the profile's card.
  await page
    .getByText(/We place a \$1\.00 check on your card on file \(\w+ •••• \d{4}\) now/)
    .waitFor()
  await page.getByRole('button', { name: 'Confirm' }).click()
}

test.group('Storefront: the customer journey to a Pending order', (group) => {
  const browser = useBrowser(group)

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`sign up, add billing and card, shop, check out, see Pending (${label})`, async ({
      assert,
    }) => {
      const page = await browser.newPage(viewport)
      const { email, product } = await signUpToProduct(page, viewport)

      const user = await User.findByOrFail('email', email)
      assert.equal(user.cardLast4, '4242')
      assert.equal(user.billingAddress?.postal_code, '10013')

      await page.getByLabel('Profile').selectOption({ label: 'Default · Visa •••• 4242' })
      await checkOut(page, '10.5')
      await page.getByRole('button', { name: 'Secured' }).waitFor()
      await page.getByRole('button', { name: 'Redirecting...' }).waitFor()
      await page.waitForURL('**/user/orders')

      const order = page.locator('.order').first()
      await order.waitFor()
      assert.include(await order.textContent(), product.title)
      assert.include(await order.locator('.status').textContent(), 'Pending')
      assert.equal(await order.locator('.pulse').count(), 1)
      assert.include(await order.textContent(), 'Default')
      assert.include(await order.textContent(), '10.5')
    })
  }

  test('a second checkout with the same profile reads Select New Profile', async ({ assert }) => {
    const { user } = await readyCustomer('Home')
    const product = await Product.findByOrFail('slug', 'kith-box-logo-hoodie-nocturnal')
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user))

    await page.goto(`/product/${product.id}`)
    await checkOut(page, 'M')
    await page.waitForURL('**/user/orders', { timeout: 20000 })

    await page.goto(`/product/${product.id}`)
    await checkOut(page, 'L')
    const button = page.getByRole('button', { name: 'Select New Profile' })
    await button.waitFor()
    assert.isTrue(await button.isDisabled())
    // Disabled, but legible: full colour, not faded below a 4.5:1 contrast.
    const opacity = await button.evaluate(
      (element) => (globalThis as any).getComputedStyle(element).opacity
    )
    assert.equal(opacity, '1')
  })

  test('a profile whose security code was deleted asks for it at Confirm', async ({ assert }) => {
    const { user, profile } = await readyCustomer('Code')
    await db
      .from('profiles')
      .where('id', profile.id)
      .update({ card_code_at: sqlTime(DateTime.now().minus({ hours: 48 })) })
    await cardCodeRetention.purgeDue()
    const product = await Product.findByOrFail('slug', 'adidas-samba-og-cloud-white')
    const page = await browser.newPage(PHONE)
    await saveCardThroughApi(await signInAs(page, user))

    await page.goto(`/product/${product.id}`)
    await page.getByLabel('Size').selectOption('9')
    await page.getByRole('button', { name: 'Checkout' }).click()
    const code = page.getByLabel('Card security code')
    await code.waitFor()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByText("Please enter your card's 3 or 4 digit security code.").waitFor()
    await code.pressSequentially('4x21')
    assert.equal(await code.inputValue(), '421')
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.waitForURL('**/user/orders', { timeout: 20000 })

    const saved = await Profile.findOrFail(profile.id)
    assert.equal(cardVault.open<{ code: string }>(saved.cardVault).code, '421')
  })

  test('a promo code from the link strikes the price through; a bad one is cleared', async ({
    assert,
  }) => {
    const { user } = await readyCustomer()
    const product = await Product.findByOrFail('slug', 'palace-tri-ferg-cap')
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto(`/product/${product.id}?promoCode=${DEMO_PROMO}`)
    await page.locator('.product__price-old').waitFor()
    assert.equal(await page.locator('.product__price-old').textContent(), '$15')
    assert.include(await page.locator('.product__price').textContent(), '$13.50')
    assert.equal(await page.evaluate("localStorage.getItem('promoCode')"), DEMO_PROMO)
    // One size: no Size select.
    assert.equal(await page.getByLabel('Size').count(), 0)

    await page.goto(`/product/${product.id}?promoCode=NOPE`)
    await waitUntil(page, "localStorage.getItem('promoCode') === null")
    assert.equal(await page.locator('.product__price-old').count(), 0)
  })

  test('the promo price shown is the one charged: $8.95 at 10 % off is $8.06 on the page and the order', async ({
    assert,
  }) => {
    const { user } = await readyCustomer('Cents')
    const product = await ProductFactory.merge({
      priceCents: 895,
      sizeType: 'OS',
      sizes: ['OS'],
      styles: 'OS',
      totalStock: 5,
      stockTaken: 0,
    }).create()
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user))
    await page.goto(`/product/${product.id}?promoCode=${DEMO_PROMO}`)
    await page.locator('.product__price-old').waitFor()
    assert.equal(await page.locator('.product__price-old').textContent(), '$8.95')
    assert.include(await page.locator('.product__price').textContent(), '$8.06')
    assert.notInclude(await page.locator('.product__price').textContent(), '$8.05')

    await page.getByRole('button', { name: 'Checkout' }).click()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.waitForURL('**/user/orders', { timeout: 20000 })
    const order = await db.from('orders').where('product_id', product.id).firstOrFail()
    assert.equal(order.price_cents, 806)
    const shown = page.locator('.order', { hasText: product.title })
    await shown.waitFor()
    assert.include(await shown.textContent(), '$8.06')
  })

  test('checkout asks for a size first and Cancel goes back to Checkout', async ({ assert }) => {
    const { user } = await readyCustomer()
    const product = await Product.findByOrFail('slug', 'adidas-samba-og-cloud-white')
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto(`/product/${product.id}`)
    await page.getByRole('heading', { name: 'Related Items' }).waitFor()
    assert.equal(await page.locator('.related .product-card').count(), 3)

    await page.getByRole('button', { name: 'Checkout' }).click()
    await page.getByText('Please select a size.').waitFor()
    await page.getByLabel('Size').selectOption('9')
    await page.getByRole('button', { name: 'Checkout' }).click()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('button', { name: 'Checkout' }).waitFor()
    // Focus comes back to the Checkout button, not to the top of the page.
    await waitUntil(page, "document.activeElement?.textContent?.trim() === 'Checkout'")
  })

  test('a product link opened logged out comes back to the product after login', async () => {
    const { user } = await readyCustomer()
    const product = await Product.findByOrFail('slug', 'adidas-samba-og-cloud-white')
    const page = await browser.newPage(PHONE)
    await page.goto(`/product/${product.id}`)
    await page.waitForURL(`**/login?next=%2Fproduct%2F${product.id}`)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill('correct-horse-battery')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(`**/product/${product.id}`)
    await page.getByRole('heading', { name: product.title }).waitFor()

    // A crafted link to another site is not followed.
    const other = await browser.newPage()
    await other.goto('/login?next=%2F%2Fevil.example%2F')
    await other.getByLabel('Email').fill(user.email)
    await other.getByLabel('Password').fill('correct-horse-battery')
    await other.getByRole('button', { name: 'Log in' }).click()
    await other.waitForURL('**/shop')
  })

  test('a card the gateway declines says so on the card step', async () => {
    const page = await browser.newPage()
    await signInAs(page, await UserFactory.apply('withBilling').create())
    await page.goto('/addCard')
    await page.getByLabel('Card Number').pressSequentially('4000000000000002')
    await page.getByLabel('MM/YY').pressSequentially('1230')
    await page.getByLabel('CVV').fill('123')
    await page.getByRole('button', { name: 'Add and Shop' }).click()
    await page.getByText('Your card was declined. Try another card.').waitFor()
  })

  test('a customer without billing address or card is sent to finish those steps', async ({
    assert,
  }) => {
    const product = await Product.firstOrFail()
    const page = await browser.newPage()
    await signInAs(page, await UserFactory.create())
    await page.goto(`/product/${product.id}`)
    await page.waitForURL(`**/addBilling?next=%2Fproduct%2F${product.id}`)

    const withBilling = await UserFactory.apply('withBilling').create()
    const other = await browser.newPage()
    await signInAs(other, withBilling)
    await other.goto(`/product/${product.id}`)
    await other.waitForURL(`**/addCard?next=%2Fproduct%2F${product.id}`)
    assert.isNull(await other.getByLabel('Card Number').getAttribute('maxlength'))
    await other.getByLabel('Card Number').pressSequentially('4242424242424241')
    assert.equal(await other.getByLabel('Card Number').inputValue(), '4242 4242 4242 4241')
    await other.getByLabel('MM/YY').pressSequentially('1230')
    await other.getByLabel('CVV').fill('123')
    await other.getByRole('button', { name: 'Add and Shop' }).click()
    await other.getByText('Please enter a valid card.').waitFor()
  })

  test('any other checkout error reads Error. Refresh, then the button returns to Checkout', async ({
    assert,
  }) => {
    // The card on file is only in our records, not at the payment gateway: the API refuses.
    const { user } = await readyCustomer()
    const product = await Product.findByOrFail('slug', 'palace-tri-ferg-cap')
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto(`/product/${product.id}`)
    await page.getByRole('button', { name: 'Checkout' }).click()
    await page.getByRole('button', { name: 'Confirm' }).click()
    const error = page.getByRole('button', { name: 'Error. Refresh' })
    await error.waitFor()
    assert.isTrue(await error.isDisabled())
    await page.getByRole('button', { name: 'Checkout' }).waitFor()
  })

  test('with analytics configured, an order sends a purchase event to window.dataLayer', async ({
    assert,
  }) => {
    const { user } = await readyCustomer('Analytics')
    const product = await Product.findByOrFail('slug', 'adidas-samba-og-cloud-white')
    const page = await browser.newPage()
    await saveCardThroughApi(await signInAs(page, user))
    await page.route('**/api/config', async (route) => {
      const upstream = await route.fetch()
      const real = await upstream.json()
      await route.fulfill({
        json: { ...real, integrations: { ...real.integrations, analyticsId: 'GTM-TEST' } },
      })
    })
    await page.route('https://www.googletagmanager.com/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: '/* tag manager stand-in */' })
    )
    await page.goto(`/product/${product.id}`)
    await waitUntil(page, 'Array.isArray(window.dataLayer)')
    await checkOut(page, '9')
    await page.getByRole('button', { name: 'Secured' }).waitFor()

    const event = await page.evaluate<{ event: string; ecommerce: Record<string, any> }>(
      "window.dataLayer.find((entry) => entry && entry.event === 'purchase')"
    )
    assert.equal(event.ecommerce.currency, 'USD')
    assert.equal(event.ecommerce.value, 25)
    assert.equal(event.ecommerce.items[0].item_name, product.title)
    assert.match(event.ecommerce.transaction_id, /\w{8,}/)
  })
})
