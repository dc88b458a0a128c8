import { test } from '@japa/runner'

test.group('Public config', () => {
  test('serves the transport key, the support e-mail, unset integrations as null and the push key', async ({
    client,
  }) => {
    const response = await client.get('/api/config')
    response.assertStatus(200)
    response.assertBody({
      profileTransportKey: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
      supportEmail: 'support@dropslot.test',
      integrations: {
        mapsApiKey: null,
        chatWidgetId: null,
        analyticsId: null,
        socialTimelineUrl: null,
        cardProviderKey: null,
      },
      // The suite's VAPID public key (.env.test): what the storefront subscribes browsers with.
      pushPublicKey:
        'BIGClVeOaiBhMnxo6MqpVgBPtyE-g7JCQOyhYM1vkaAuOx-37w9Lq1cazNXUMt5a8dn9MqKtQOejtPbUhG5JoU8',
    })
  })
})

test.group('Storefront history fallback', () => {
  test('app paths get the storefront page; unknown API paths and missing files are 404s', async ({
    client,
    assert,
  }) => {
    for (const path of ['/', '/shop', '/user/orders', '/refundPolicy.html', '/product/3']) {
      const page = await client.get(path)
      page.assertStatus(200)
      assert.include(page.header('content-type'), 'text/html')
    }
    const api = await client.get('/api/nothing-here')
    api.assertStatus(404)
    api.assertBody({ success: false, error: 'No such endpoint.', code: 'not_found' })
    const asset = await client.get('/assets/index-stale.js')
    asset.assertStatus(404)
    const image = await client.get('/images/products/no-such-product.svg')
    image.assertStatus(404)
  })
})
