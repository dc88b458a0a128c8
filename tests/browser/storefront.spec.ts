import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import NewsletterSubscriber from '#notifications/models/newsletter_subscriber'
import Product from '#catalog/models/product'
import { DEMO_PRODUCTS, DEMO_RELEASE } from '#database/seeders/demo_seeder'
import { UserFactory } from '#database/factories/user_factory'
import EmailMessage from '#notifications/models/email_message'
import { productFor } from '#tests/helpers'
import {
  PHONE,
  readyCustomer,
  servePolicyFor,
  signInAs,
  uniqueEmail,
  useBrowser,
  waitUntil,
} from './helpers.js'

const titlesIn = async (page: import('playwright-core').Page) =>
  page.locator('[data-testid="product-grid"] .product-card__title').allTextContents()

/**
 * The shop's cards' states, asserted in drop order: open and upcoming first, then sold out and
 * closed, released last.
 */
async function cardStatesInDropOrder(
  page: import('playwright-core').Page,
  assert: import('@japa/assert').Assert
) {
  const states = await page
    .locator('.product-card')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-state')))
  const rank = (state: string | null) =>
    state === 'open' || state === 'upcoming' ? 0 : state === 'released' ? 2 : 1
  assert.deepEqual(
    states.map(rank),
    [...states.map(rank)].sort((a, b) => a - b),
    `cards in drop order: ${states.join(', ')}`
  )
  return states
}

test.group('Storefront: home, shop and public pages', (group) => {
  const browser = useBrowser(group)

  test('home shows a 3-slide carousel with dots and no arrows', async ({ assert }) => {
    const page = await browser.newPage()
    await page.goto('/')
    await page.locator('.carousel__slide.is-active').waitFor()
    assert.equal(await page.locator('.carousel__slide').count(), 3)
    assert.equal(await page.locator('.carousel__dot').count(), 3)
    assert.equal(await page.getByRole('button', { name: /next|previous/i }).count(), 0)

    // Drops first: the next three that can still be bought or entered, soonest release first.
    const now = Date.now()
    const byRelease = await Product.query()
      .where('avail', true)
      .orderBy('release_at', 'asc')
      .orderBy('id', 'asc')
    const next = byRelease.filter(
      (product) =>
        product.releaseAt !== null &&
        product.releaseAt.toMillis() > now &&
        (product.releaseMode === 'draw'
          ? !product.entryClosesAt || product.entryClosesAt.toMillis() > now
          : product.stockTaken < product.totalStock)
    )
    const latest = next[0]
    const active = page.locator('.carousel__slide.is-active h2')
    assert.equal(await active.textContent(), latest.title)
    assert.deepEqual(
      await page.locator('.carousel__slide h2').allTextContents(),
      next.slice(0, 3).map((product) => product.title)
    )
    await page.locator('.carousel__dot').nth(2).click()
    assert.notEqual(
      await page.locator('.carousel__slide.is-active h2').textContent(),
      latest!.title
    )
    assert.equal(await page.title(), 'Release-day checkout, done for you · Dropslot')
  })

  test('the newsletter box subscribes an e-mail: Sign Up becomes Signed Up', async ({ assert }) => {
    const page = await browser.newPage()
    const email = uniqueEmail('news')
    await page.goto('/')
    const box = page.locator('.newsletter')
    await box.getByLabel('Email address').fill('not-an-email')
    await box.getByRole('button', { name: 'Sign Up' }).click()
    await box.getByText('Please enter a valid e-mail address.').waitFor()

    await box.getByLabel('Email address').fill(email)
    await box.getByRole('button', { name: 'Sign Up' }).click()
    await box.getByRole('button', { name: 'Signed Up' }).waitFor()
    assert.isNotNull(await NewsletterSubscriber.findBy('email', email))
  })

  test('the shop filters by brand on desktop; every card links to its product', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await page.goto('/shop')
    await page.locator('.product-grid.is-revealed').waitFor()
    const available = await Product.query().where('avail', true)
    assert.sameMembers(
      await titlesIn(page),
      available.map((product) => product.title)
    )
    assert.isTrue(await page.locator('main').getByRole('link', { name: 'Signup' }).isVisible())

    const tagged = (brand: string) =>
      available.filter((p) => p.tags.split(',').includes(brand)).map((p) => p.title)
    await page.getByRole('button', { name: 'Kith', exact: true }).click()
    assert.sameMembers(await titlesIn(page), tagged('kith'))

    await page.getByRole('button', { name: 'Shopify', exact: true }).click()
    assert.sameMembers(await titlesIn(page), tagged('shopify'))
    const href = await page.locator('.product-card').first().getAttribute('href')
    assert.match(href!, /^\/product\/\d+$/)
  })

  test('the shop shows a brand select instead of the list on a phone', async ({ assert }) => {
    const page = await browser.newPage(PHONE)
    await page.goto('/products')
    await page.locator('.product-grid.is-revealed').waitFor()
    assert.isFalse(await page.getByRole('button', { name: 'Nike', exact: true }).isVisible())
    await page.getByLabel('Brand', { exact: true }).selectOption('nike')
    const available = await Product.query().where('avail', true)
    const nike = available.filter((p) => p.tags.split(',').includes('nike')).map((p) => p.title)
    assert.sameMembers(await titlesIn(page), nike)
  })

  test('deep links load the app; unknown API paths keep the JSON 404 envelope', async ({
    assert,
    client,
  }) => {
    const page = await browser.newPage()
    const response = await page.goto('/ourTerms.html')
    assert.equal(response?.status(), 200)
    await page.waitForURL('**/login?next=%2FourTerms.html')

    const api = await client.get('/api/no-such-endpoint')
    api.assertStatus(404)
    api.assertBody({ success: false, error: 'No such endpoint.', code: 'not_found' })
    const asset = await client.get('/assets/missing-chunk.js')
    asset.assertStatus(404)
  })

  test('every demo product has its illustration in the build, and the shop shows it', async ({
    assert,
    client,
  }) => {
    for (const slug of [...DEMO_PRODUCTS.map((p) => p.slug), DEMO_RELEASE.slug, 'fallback']) {
      const image = await client.get(`/images/products/${slug}.svg`)
      image.assertStatus(200)
      assert.include(image.header('content-type'), 'image/svg+xml')
    }
    const page = await browser.newPage()
    await page.goto('/shop')
    const first = page.locator('.product-card img').first()
    await first.waitFor()
    await waitUntil(
      page,
      "[...document.querySelectorAll('.product-card img')].slice(0, 3).every((img) => img.complete && img.naturalWidth > 0)"
    )
    assert.notInclude((await first.getAttribute('src')) ?? '', 'fallback')
  })

  test('nothing outside this server is requested when no third party is configured', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    const foreign: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (!['127.0.0.1', 'localhost'].includes(url.hostname)) foreign.push(request.url())
    })
    for (const path of ['/', '/shop', '/testimonials', '/signup']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
    }
    assert.deepEqual(foreign, [])
  })

  test('configured third parties load after the page; the chat widget hears route changes', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await servePolicyFor(page, {
      chatWidgetId: 'app123',
      analyticsId: 'GTM-TEST',
      socialTimelineUrl: 'https://x.com/dropslot',
    })
    // Stand-ins for the vendors' scripts: nothing leaves the machine.
    await page.route('**/api/config', async (route) => {
      const upstream = await route.fetch()
      const real = await upstream.json()
      await route.fulfill({
        json: {
          ...real,
          integrations: {
            ...real.integrations,
            chatWidgetId: 'app123',
            analyticsId: 'GTM-TEST',
            socialTimelineUrl: 'https://x.com/dropslot',
          },
        },
      })
    })
    const loaded: string[] = []
    await page.route(
      /^https:\/\/(widget\.intercom\.io|www\.googletagmanager\.com|platform\.twitter\.com)\//,
      (route) => {
        loaded.push(new URL(route.request().url()).hostname)
        return route.fulfill({ contentType: 'text/javascript', body: 'window.__standIn = true' })
      }
    )
    await page.goto('/testimonials')
    await page.locator('.social-timeline a.twitter-timeline').waitFor()
    await waitUntil(page, 'Array.isArray(window.Intercom?.q)')
    const before = await page.evaluate<number>('window.Intercom.q.length')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop' }).click()
    await page.waitForURL('**/shop')
    // The widget is told after the route renders: wait for the call rather than racing it.
    await waitUntil(page, `window.Intercom.q.length > ${before}`)
    const calls = await page.evaluate<string[]>('window.Intercom.q.map((call) => call[0])')
    assert.isAbove(calls.length, before)
    assert.equal(calls[0], 'boot')
    assert.include(calls.slice(before), 'update')
    assert.sameMembers(
      [...new Set(loaded)],
      ['widget.intercom.io', 'www.googletagmanager.com', 'platform.twitter.com']
    )
  })

  test('forgot password sends the link, and the link sets a new password', async ({ assert }) => {
    const user = await UserFactory.create()
    const page = await browser.newPage()
    await page.goto('/forgot')
    await page.getByLabel('Email').fill(user.email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByText('If an account exists for that e-mail').waitFor()

    const mail = await EmailMessage.query()
      .where('to_address', user.email)
      .where('template', 'password_reset')
      .firstOrFail()
    const link = /\/reset\?token=[^\s"<]+/.exec(mail.textBody)
    assert.isNotNull(link)
    await page.goto(link![0])
    await page.getByLabel('New password').fill('a-brand-new-password')
    await page.getByLabel('Confirm password').fill('a-brand-new-password')
    await page.getByRole('button', { name: 'Save password' }).click()
    await page.getByText('Your password has been changed').waitFor()

    await page.getByRole('link', { name: 'Log in' }).last().click()
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill('a-brand-new-password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/shop')
  })
  test('drops first: open and upcoming lead with countdowns; sold out and released come last, labelled', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await page.goto('/shop')
    await page.locator('.product-grid.is-revealed').waitFor()
    const states = await cardStatesInDropOrder(page, assert)
    assert.equal(states.at(-1), 'released')
    const first = page.locator('.product-card').first()
    assert.match(
      (await first.locator('.product-card__countdown').textContent()) ?? '',
      /^(\d+d )?\d\d:\d\d:\d\d$/
    )
    assert.match((await first.textContent()) ?? '', /\d+ of \d+ left|slots by draw/)
    assert.include(await first.locator('.product-card__zone').textContent(), 'New York')
    const released = page.locator('.product-card[data-state="released"]').first()
    assert.include(await released.locator('.badge').textContent(), 'Released')
    const releasedHref = await released.getAttribute('href')

    // The released product's button says why before anyone clicks.
    const { user } = await readyCustomer()
    await signInAs(page, user)
    await page.goto(releasedHref!)
    const button = page.getByRole('button', { name: 'Released: slots are no longer sold' })
    await button.waitFor()
    assert.isTrue(await button.isDisabled())
  })
  test('a draw whose entries close while the shop is open moves behind the open drops', async ({
    assert,
  }) => {
    const closesAt = DateTime.now().plus({ minutes: 2 }).startOf('second')
    const product = await productFor({
      title: 'Closing Soon Draw',
      releaseMode: 'draw',
      entryOpensAt: DateTime.now().minus({ hours: 1 }).startOf('second'),
      entryClosesAt: closesAt,
      // The soonest release of all, so it leads the shop while its entries are open.
      releaseAt: DateTime.now().plus({ minutes: 30 }).startOf('second'),
    })
    const page = await browser.newPage()
    await page.clock.install({ time: new Date() })
    await page.goto('/shop')
    await page.locator('.product-grid.is-revealed').waitFor()
    const card = page.locator('.product-card', { hasText: product.title })
    assert.equal(await card.getAttribute('data-state'), 'open')

    await page.clock.runFor(closesAt.toMillis() - Date.now() + 2000)
    assert.equal(await card.getAttribute('data-state'), 'closed')
    await cardStatesInDropOrder(page, assert)
  })
  test('every testimonial is shown once', async ({ assert }) => {
    const page = await browser.newPage()
    await page.goto('/testimonials')
    await page.locator('.quote-card').first().waitFor()
    const quotes = await page.locator('.quote-card blockquote').allTextContents()
    assert.isAbove(quotes.length, 3)
    assert.lengthOf(new Set(quotes), quotes.length)
  })
})
