import { test } from '@japa/runner'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_CUSTOMER } from '#database/seeders/demo_seeder'
import { secondFactor } from '#accounts/services/second_factor'
import { clock } from '#core/services/clock'
import { STORED_USER, baseUrl, signInAs, useBrowser } from './helpers.js'

test.group('Storefront: log in, log out and the navigation guard', (group) => {
  const browser = useBrowser(group)

  test('a wrong password shows the danger alert, cleared by the next route change', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await page.goto('/login')
    await page.getByLabel('Email').fill(DEMO_CUSTOMER.email)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Log in' }).click()

    const alert = page.locator('.global-alert')
    await alert.waitFor()
    const message = await alert.locator('span').textContent()
    assert.equal(message, 'Email or password is incorrect.')
    assert.isNull(await page.evaluate(STORED_USER))

    await page.getByRole('link', { name: 'Forgot Password?' }).click()
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor()
    await alert.waitFor({ state: 'detached' })
    assert.equal(await alert.count(), 0)
  })

  test('the demo customer logs in and lands on the shop with an Account link', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await page.goto('/login')
    await page.getByLabel('Email').fill(DEMO_CUSTOMER.email)
    await page.getByLabel('Password').fill(DEMO_CUSTOMER.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/shop')
    await page.locator('main').getByRole('link', { name: 'Account' }).waitFor()
    const stored = JSON.parse((await page.evaluate(STORED_USER)) ?? '{}')
    assert.match(stored.token, /^oat_/)
    assert.equal(stored.email, DEMO_CUSTOMER.email)
  })

  test('visitors are sent to /login from every private path, public paths stay open', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    for (const path of [
      '/user/account',
      '/user/orders',
      '/user/recentOrders',
      '/user/profiles',
      '/product/1',
      '/addBilling',
      '/addCard',
      '/integrations',
      '/refundPolicy.html',
      '/tos',
    ]) {
      await page.goto(path)
      // The guard keeps where the visitor was going, to come back after logging in.
      await page.waitForURL((url) => url.pathname === '/login')
      assert.equal(new URL(page.url()).searchParams.get('next'), path)
    }
    for (const [path, heading] of [
      ['/shop', 'Shop the drops'],
      ['/products', 'Shop the drops'],
      ['/how-it-works', 'From slot to sneakers'],
      ['/testimonials', 'Release days, won'],
      ['/refund-policy', 'Refund policy'],
      ['/terms', 'Terms of service'],
      ['/forgot', 'Forgot your password?'],
      ['/reset', 'Reset link needed'],
    ]) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1, name: heading }).waitFor()
      assert.equal(new URL(page.url()).pathname, path)
    }
    assert.equal(await page.title(), 'Reset password · Dropslot')
  })

  test('a signed-in customer visiting /login or /signup goes home', async ({ assert }) => {
    const page = await browser.newPage()
    await signInAs(page, await UserFactory.create())
    for (const path of ['/login', '/signup']) {
      await page.goto(path)
      await page.waitForURL(`${baseUrl()}/`)
      assert.equal(new URL(page.url()).pathname, '/')
    }
  })

  test('/logout clears the session, revokes the token and goes to /login', async ({
    assert,
    client,
  }) => {
    const page = await browser.newPage()
    const token = await signInAs(page, await UserFactory.create())
    await page.goto('/user/account')
    await page.getByRole('heading', { name: 'Account Info' }).waitFor()

    await page.getByRole('link', { name: 'Log out' }).click()
    await page.waitForURL('**/login')
    assert.isNull(await page.evaluate(STORED_USER))
    const response = await client.get('/api/user/info').bearerToken(token)
    response.assertStatus(401)
  })

  test('a dead token on user info logs out and the guard sends the page to /login', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await page.goto('/how-it-works')
    const dead = { token: 'oat_bogus.token', email: 'x@example.test', name: 'X', uuid: 'u-1' }
    await page.evaluate(`localStorage.setItem('user', ${JSON.stringify(JSON.stringify(dead))})`)
    await page.goto('/user/account')
    await page.waitForURL('**/login?next=%2Fuser%2Faccount')
    assert.isNull(await page.evaluate(STORED_USER))
  })
})

test.group('Storefront: two-step sign-in', (group) => {
  const browser = useBrowser(group)

  test('a buyer turns on an authenticator app, then signs in with its code', async ({ assert }) => {
    const buyer = await UserFactory.merge({ email: `two-step-${Date.now()}@example.test` }).create()
    const page = await browser.newPage()
    await signInAs(page, buyer)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
    const key = await page.getByLabel('Authenticator key').innerText()
    await page.getByLabel('Authentication code').fill(secondFactor.codeAt(key.replace(/\s/g, '')))
    await page.getByRole('button', { name: 'Turn on' }).click()
    const codes = page.getByRole('list', { name: 'Recovery codes' })
    await codes.waitFor()
    assert.equal(await codes.getByRole('listitem').count(), 10)
    await page.getByRole('button', { name: 'I have saved them' }).click()
    await page.getByText('On: signing in asks for a code').waitFor()

    await page.evaluate(`localStorage.clear()`)
    clock.travel(30_000)
    await page.goto('/login')
    await page.getByLabel('Email').fill(buyer.email)
    await page.getByLabel('Password').fill('correct-horse-battery')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor()
    assert.isNull(await page.evaluate(STORED_USER), 'nothing is stored before the code')
    await page.getByLabel('Authentication code').fill(secondFactor.codeAt(key.replace(/\s/g, '')))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL('**/shop')
    const stored = JSON.parse((await page.evaluate(STORED_USER)) ?? '{}')
    assert.equal(stored.email, buyer.email)
  })
})
