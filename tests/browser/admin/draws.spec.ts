import { test } from '@japa/runner'
import type { Page } from 'playwright-core'
import db from '@adonisjs/lucid/services/db'
import Product from '#catalog/models/product'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_DRAWS } from '#database/seeders/demo_seeder'
import { checkoutService } from '#checkout/services/checkout_service'
import { customerWithCard, placeHolds, profileFor } from '#tests/helpers'
import {
  DRAW_CARDS,
  distinctCard,
  drawProfileData,
  recordedDraw,
  startRecordedRelay,
} from '#tests/support/draws'
import { baseUrl, signIn, useConsolePage } from './chromium.js'

test.group('Admin console: draws in Chromium', (group) => {
  const currentPage = useConsolePage(group)
  let page: Page
  group.each.setup(() => {
    page = currentPage()
  })

  test('the draw view shows the commitment, the beacon round, the result with its alternates, verified', async ({
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, 'correct-horse-battery')
    await page.getByText('Next release').waitFor()
    const drawn = await Product.findByOrFail('slug', DEMO_DRAWS.drawn.slug)
    await page.goto(`${baseUrl()}/admin/products/${drawn.id}/show`)
    const panel = page.getByTestId('draw-panel')
    await panel.getByText('Recomputed from the published proof: it matches.').waitFor()
    const record = await db.from('draws').where('product_id', drawn.id).first()
    assert.include(await panel.textContent(), record.commitment)
    assert.include(await panel.textContent(), 'drand quicknet round 657413')
    assert.include(await panel.textContent(), 'Entries: 4')
    assert.equal(await panel.getByTestId('draw-winners').locator('li').count(), 2)
    assert.equal(await panel.getByTestId('draw-alternates').locator('li').count(), 2)
  })

  test('a draw waits for its beacon, says so, and runs once a relay gives the round', async ({
    assert,
  }) => {
    const admin = await UserFactory.apply('admin').create()
    const entrants = []
    for (let index = 0; index < 3; index++) {
      const customer = await customerWithCard(distinctCard(800 + index))
      const profile = await profileFor(
        customer.user,
        drawProfileData(index, DRAW_CARDS[index], `${index + 1} Console Street`)
      )
      entrants.push({ ...customer, profile })
    }
    const draw = await recordedDraw(657413, { totalStock: 2, title: 'Console Beacon Draw' })
    for (const entrant of entrants) {
      await checkoutService.checkout(entrant.user, {
        productId: draw.product.id,
        style: 'Black',
        size: '9',
        profileId: entrant.profile.publicId,
      })
    }
    await placeHolds()
    draw.afterRound()
    await signIn(page, admin.email, 'correct-horse-battery')
    await page.getByText('Next release').waitFor()
    await page.goto(`${baseUrl()}/admin/products/${draw.product.id}/show`)
    const panel = page.getByTestId('draw-panel')
    await panel.getByText('Not drawn yet').waitFor()
    await panel.getByRole('button', { name: 'Run draw' }).click()
    await page.getByText(/The draw waits for quicknet round 657413/).waitFor()
    await panel.getByTestId('draw-beacon-waiting').waitFor()

    const relay = await startRecordedRelay()
    try {
      await panel.getByRole('button', { name: 'Run draw' }).click()
      await page.getByText('Drawn: 2 winner(s) of 3 entries (quicknet round 657413)').waitFor()
      await panel.getByText('Recomputed from the published proof: it matches.').waitFor()
    } finally {
      await relay.close()
    }
    const record = await db.from('draws').where('product_id', draw.product.id).first()
    assert.isNotNull(record.drawn_at)
    assert.equal(await panel.getByTestId('draw-beacon-waiting').count(), 0)
  })
})
