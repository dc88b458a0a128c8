import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import testUtils from '@adonisjs/core/services/test_utils'
import PromoCode from '#checkout/models/promo_code'

test.group('Promo lookup', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('returns the percent of a usable code, whatever its case', async ({ client }) => {
    await PromoCode.create({ code: 'SPRING15', percent: 15, active: true, uses: 0 })
    const response = await client.get('/api/promoLookup').qs({ promoCode: 'spring15' })
    response.assertStatus(200)
    response.assertBody({ success: true, code: 'SPRING15', percent: 15 })
  })

  test('unknown, expired, not yet started, used up and inactive codes are 404', async ({
    client,
  }) => {
    const now = DateTime.now()
    await PromoCode.createMany([
      { code: 'OLD', percent: 10, active: true, uses: 0, expiresAt: now.minus({ days: 1 }) },
      { code: 'SOON', percent: 10, active: true, uses: 0, startsAt: now.plus({ days: 1 }) },
      { code: 'USEDUP', percent: 10, active: true, uses: 5, maxUses: 5 },
      { code: 'OFF', percent: 10, active: false, uses: 0 },
    ])
    for (const promoCode of ['NOPE', 'OLD', 'SOON', 'USEDUP', 'OFF']) {
      const response = await client.get('/api/promoLookup').qs({ promoCode })
      response.assertStatus(404)
      response.assertBodyContains({ success: false, code: 'promo_not_found' })
    }
  })

  test('a missing code is a 400', async ({ client }) => {
    const response = await client.get('/api/promoLookup')
    response.assertStatus(400)
    response.assertBodyContains({ success: false, code: 'promo_code_required' })
  })
})
