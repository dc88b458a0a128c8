import { test } from '@japa/runner'
import type { Page } from 'playwright-core'
import Product from '#catalog/models/product'
import { CARD_WORDS } from '#shared/vocabulary'
import { PHONE, readyCustomer, signInAs, useBrowser } from './helpers.js'

/**
 * Sum of the layout shifts (without recent input) the page has had since it started loading,
 * read once it has settled: no request for a moment, the fonts loaded and every picture decoded.
 */
async function layoutShift(page: Page) {
  await page.waitForLoadState('networkidle')
  return page.evaluate(`(async () => {
    await document.fonts.ready
    await Promise.all([...document.images].map((img) => img.decode().catch(() => {})))
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    return new Promise((resolve) => {
      const observer = new PerformanceObserver((list) => {
        let total = 0
        for (const entry of list.getEntries()) {
          if (!entry.hadRecentInput) total += entry.value
        }
        observer.disconnect()
        resolve(total)
      })
      observer.observe({ type: 'layout-shift', buffered: true })
      // A page that never shifted has no entry to report: the observer is then never called.
      requestAnimationFrame(() => setTimeout(() => resolve(0), 0))
    })
  })()`) as Promise<number>
}

test.group('Storefront content: pictures, font, stable layout', (group) => {
  const browser = useBrowser(group)

  test('shop pictures have width, height and a srcset whose files load', async ({ assert }) => {
    const page = await browser.newPage(PHONE)
    await page.goto('/shop')
    await page.locator('.product-card img').first().waitFor()
    const images = await page.locator('.product-card img').evaluateAll((elements) =>
      (elements as any[]).map((img) => ({
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        srcset: img.getAttribute('srcset') ?? '',
      }))
    )
    assert.isAbove(images.length, 3)
    for (const image of images) {
      assert.equal(image.width, '800')
      assert.equal(image.height, '600')
      assert.match(image.srcset, /-400\.webp 400w, .+-800\.webp 800w, .+-1200\.webp 1200w$/)
      for (const candidate of image.srcset.split(', ')) {
        const response = await page.request.get(candidate.split(' ')[0])
        assert.equal(response.status(), 200, candidate)
        assert.equal(response.headers()['content-type'], 'image/webp')
      }
    }
  })

  test('the brand font comes from this site', async ({ assert }) => {
    const page = await browser.newPage()
    const fonts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'font') fonts.push(request.url())
    })
    await page.goto('/')
    await page.locator('main h1').waitFor()
    await page.evaluate('document.fonts.ready.then(() => true)')
    await page.waitForLoadState('networkidle')
    assert.isAbove(fonts.length, 0)
    for (const url of fonts) {
      assert.isTrue(url.startsWith(new URL(page.url()).origin + '/assets/'), url)
      assert.match(url, /\.woff2$/)
    }
  })

  test('home, shop and a product page load on a phone with CLS under 0.1', async ({ assert }) => {
    const page = await browser.newPage(PHONE)
    const { user } = await readyCustomer()
    await signInAs(page, user)
    const product = await Product.findByOrFail('slug', 'nike-air-jordan-1-high-og-chicago')
    for (const path of ['/', '/shop', `/product/${product.id}`]) {
      const fresh = await page.context().newPage()
      await fresh.goto(path)
      await fresh.locator('main h1').first().waitFor()
      const cls = await layoutShift(fresh)
      assert.isBelow(cls, 0.1, `${path}: ${cls}`)
      await fresh.close()
    }
  })

  test('the footer carries the current year and the home page the one story of the $1.00 check', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await page.goto('/')
    const footer = page.locator('footer')
    await footer.getByText(`© ${new Date().getFullYear()} Dropslot`).waitFor()
    await page.getByText('$1.00 card check, never charged').waitFor()
    assert.equal(await page.getByText('always released').count(), 0)
  })

  test('the $1.00 check is said once, renewal included, and a miss reads Not secured', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    for (const path of ['/', '/how-it-works', '/refund-policy', '/testimonials']) {
      await page.goto(path)
      await page.locator('main h1').first().waitFor()
      assert.equal(await page.getByText('within a week').count(), 0, path)
      assert.equal(await page.getByText("profile's card to verify").count(), 0, path)
    }
    await page.goto('/how-it-works')
    await page.getByText(CARD_WORDS.check, { exact: false }).waitFor()
    await page.getByText('shows as Not secured and nothing is charged').waitFor()
    await page.goto('/')
    await page.getByText('Not secured: sold out. Nothing charged', { exact: false }).waitFor()
    assert.equal(await page.getByText('Refunded').count(), 0)
  })
})
