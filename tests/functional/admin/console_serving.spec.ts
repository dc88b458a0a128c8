import { test } from '@japa/runner'

test.group('Admin console serving', () => {
  test('/admin and any path under it get the console page, never cached', async ({
    client,
    assert,
  }) => {
    // Once built, the static server answers /admin with a redirect to /admin/ (a directory).
    const bare = await client.get('/admin').redirects(0)
    if (bare.status() === 301) assert.equal(bare.header('location'), '/admin/')
    else bare.assertStatus(200)

    for (const path of ['/admin/', '/admin/orders/3f1c2a9e/show', '/admin/products/create']) {
      const response = await client.get(path).redirects(0)
      response.assertStatus(200)
      assert.include(response.header('content-type'), 'text/html')
      assert.equal(response.header('cache-control'), 'no-cache')
      assert.match(response.text(), /Dropslot (ops console|admin)/)
    }
  })

  test('unknown admin API paths stay JSON 404s, not the console page', async ({ client }) => {
    const response = await client.get('/api/admin/no-such-resource')
    response.assertStatus(404)
    response.assertBodyContains({ success: false, code: 'not_found' })
  })
})
