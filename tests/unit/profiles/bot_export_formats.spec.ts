import { test } from '@japa/runner'
import { parse } from 'csv-parse/sync'
import { exportAco, isExportFormat, type AcoEntry } from '#profiles/services/bot_export_formats'

const shipping = {
  address1: '148 Lafayette St',
  address2: 'Apt 4',
  firstName: 'Jordan',
  lastName: 'Rivera',
  city: 'New York',
  zip: '10013',
  state: 'NY',
  country: 'US',
}

const entry: AcoEntry = {
  orderId: '0f8d6c1e-1111-4222-8333-944445555666',
  taskId: 'task-0f8d6c1e-1111-4222-8333-944445555666-2',
  round: 2,
  productId: 3,
  productTitle: "Air Jordan 1 'Chicago'",
  style: 'Varsity Red',
  size: '9.5',
  sizes: ['9.5', '10', '9'],
  retailer: {
    retailer: 'kith',
    name: 'Kith',
    url: 'https://kith.com/products/aj1-chicago',
    priceCents: 23_500,
    releaseAt: '2031-05-02T15:00:00.000Z',
  },
  maxItemPriceCents: 25_000,
  profile: {
    profileId: 'p-1',
    profileName: 'Home',
    email: 'jordan@example.test',
    phone: '2125550148',
    shipping,
    billing: { ...shipping, address1: '1 Billing Way', address2: '' },
    card: {
      name: 'Jordan Rivera',
      number: '4242424242424242',
      code: '123',
      month: '12',
      year: '2029',
      cardType: 'visa',
    },
  },
}

test.group('ACO export formats', () => {
  test('only the known formats are accepted', ({ assert }) => {
    assert.isTrue(isExportFormat('aycd'))
    assert.isFalse(isExportFormat('zip'))
    assert.isFalse(isExportFormat(undefined))
  })

  test('AYCD carries the size, both addresses and the full card', ({ assert }) => {
    const file = exportAco('aycd', [entry])
    const [profile] = JSON.parse(file.body)
    assert.equal(file.extension, 'json')
    assert.equal(profile.size, '9.5')
    assert.equal(profile.shippingAddress.line1, '148 Lafayette St')
    assert.equal(profile.billingAddress.line1, '1 Billing Way')
    assert.isFalse(profile.sameBillingAndShippingAddress)
    assert.deepEqual(profile.paymentDetails, {
      nameOnCard: 'Jordan Rivera',
      cardType: 'visa',
      cardNumber: '4242424242424242',
      cardExpMonth: '12',
      cardExpYear: '2029',
      cardCvv: '123',
    })
  })

  test('Stellar and Cybersole map addresses and card fields', ({ assert }) => {
    const [stellar] = JSON.parse(exportAco('stellar', [entry]).body)
    assert.equal(stellar.shipping.zipcode, '10013')
    assert.equal(stellar.payment.cvv, '123')
    const [cybersole] = JSON.parse(exportAco('cybersole', [entry]).body)
    assert.isTrue(cybersole.billingDifferent)
    assert.equal(cybersole.delivery.zip, '10013')
    assert.equal(cybersole.card.expiryYear, '2029')
  })

  test('every format carries the size ladder in order, the retailer and the cap', ({ assert }) => {
    for (const format of ['aycd', 'stellar', 'cybersole'] as const) {
      const [profile] = JSON.parse(exportAco(format, [entry]).body)
      assert.deepEqual(profile.sizes, ['9.5', '10', '9'], format)
      assert.equal(profile.site, 'Kith', format)
      assert.equal(profile.productUrl, 'https://kith.com/products/aj1-chicago', format)
      assert.equal(profile.maxItemPriceCents, 25_000, format)
    }
    const [row] = parse(exportAco('csv', [entry]).body, { columns: true }) as Record<
      string,
      string
    >[]
    assert.equal(row.sizes, '9.5 | 10 | 9')
    assert.equal(row.retailer, 'kith')
    assert.equal(row.retailerUrl, 'https://kith.com/products/aj1-chicago')
    assert.equal(row.retailerPriceCents, '23500')
    assert.equal(row.maxItemPriceCents, '25000')
    const [own] = JSON.parse(exportAco('dropslot', [entry]).body).orders
    assert.deepEqual(own.sizes, ['9.5', '10', '9'])
    assert.equal(own.retailer.retailer, 'kith')
    assert.equal(own.maxItemPriceCents, 25_000)
  })

  test('CSV has a header and one row per order, quoting commas', ({ assert }) => {
    const file = exportAco('csv', [entry, { ...entry, orderId: 'second', size: '10' }])
    assert.equal(file.extension, 'csv')
    const rows = parse(file.body, { columns: true }) as Record<string, string>[]
    assert.lengthOf(rows, 2)
    assert.equal(rows[0].productTitle, "Air Jordan 1 'Chicago'")
    assert.equal(rows[0].cardNumber, '4242424242424242')
    assert.equal(rows[1].size, '10')
    // The task of the order's round, for the bot to report its result under.
    assert.equal(rows[0].taskId, 'task-0f8d6c1e-1111-4222-8333-944445555666-2')
    assert.equal(rows[0].round, '2')
  })

  test("Dropslot's own format keeps the entries whole", ({ assert }) => {
    const body = JSON.parse(exportAco('dropslot', [entry]).body)
    assert.deepEqual(body, { version: 1, orders: [entry] })
  })
})
