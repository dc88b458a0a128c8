import { test } from '@japa/runner'
import { twoRetailerProduct } from '#tests/support/release'
import testUtils from '@adonisjs/core/services/test_utils'
import EmailMessage from '#notifications/models/email_message'
import Order from '#orders/models/order'
import { customerWithCard, profileFor } from '#tests/helpers'
import { distinctCard, drawProduct, drawProfileData, DRAW_CARDS } from '#tests/support/draws'

const LADDER = 'Sizes, in order: 10, then 10.5, then 9.5'
const CAP = 'Price cap: Up to $250.00 for the item with shipping'
const CHOICE_LINE = /Sizes, in order|Retailers:|Price cap/

/** A customer buys a slot of size 10 over HTTP with `choices`: the e-mail written for it. */
async function mailOfSlot(client: any, choices: Record<string, unknown>, template: string) {
  const customer = await customerWithCard()
  const profile = await profileFor(customer.user)
  const product = await twoRetailerProduct()
  const response = await client
    .post('/api/checkout/withprofile')
    .bearerToken(customer.token)
    .json({
      productId: product.id,
      style: 'Black',
      size: '10',
      profileId: profile.publicId,
      ...choices,
    })
  response.assertStatus(201)
  return mailOf(response.body().order.orderId, template)
}

async function mailOf(publicId: string, template: string) {
  const order = await Order.findByOrFail('publicId', publicId)
  return EmailMessage.query().where('order_id', order.id).where('template', template).firstOrFail()
}

test.group("E-mails: a slot's sizes, retailers and price cap", (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the receipt of a three-size slot with a cap lists the sizes in order and the cap', async ({
    client,
    assert,
  }) => {
    const receipt = await mailOfSlot(
      client,
      { sizes: ['10', '10.5', '9.5'], maxItemPriceCents: 25_000 },
      'order_received'
    )
    for (const line of [LADDER, CAP]) {
      assert.include(receipt.textBody, `\n\n${line}\n\n`)
      assert.include(receipt.htmlBody, `<p>${line}</p>`)
    }
    // Every retailer of the release is what a slot is anyway: no line for it.
    assert.notInclude(receipt.textBody, 'Retailers:')
    assert.notInclude(receipt.htmlBody, 'Retailers:')
  })

  test('the receipt names the retailers the buyer chose', async ({ client, assert }) => {
    const receipt = await mailOfSlot(
      client,
      { retailers: ['newbalance', 'kith'] },
      'order_received'
    )
    assert.include(receipt.textBody, 'Retailers: New Balance, Kith')
    assert.include(receipt.htmlBody, '<p>Retailers: New Balance, Kith</p>')
    assert.notMatch(receipt.textBody, /Sizes, in order|Price cap/)
  })

  test("a plain slot's receipt has no choice lines", async ({ client, assert }) => {
    const receipt = await mailOfSlot(client, {}, 'order_received')
    assert.include(receipt.textBody, 'size 10, style Black.')
    assert.notMatch(receipt.textBody, CHOICE_LINE)
    assert.notMatch(receipt.htmlBody, CHOICE_LINE)
  })

  test('the draw-entered e-mail lists the sizes in order and the cap', async ({
    client,
    assert,
  }) => {
    const product = await drawProduct()
    const customer = await customerWithCard(distinctCard(0))
    const profile = await profileFor(
      customer.user,
      drawProfileData(0, DRAW_CARDS[0], '1 Draw Street')
    )
    const response = await client
      .post('/api/checkout/withprofile')
      .bearerToken(customer.token)
      .json({
        productId: product.id,
        style: 'Black',
        size: '10',
        sizes: ['10', '10.5', '9.5'],
        maxItemPriceCents: 25_000,
        profileId: profile.publicId,
      })
    response.assertStatus(201)
    const entered = await mailOf(response.body().order.orderId, 'draw_entered')
    for (const line of [LADDER, CAP]) {
      assert.include(entered.textBody, line)
      assert.include(entered.htmlBody, `<p>${line}</p>`)
    }
  })
})
