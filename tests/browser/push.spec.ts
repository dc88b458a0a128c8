import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import type { Page } from 'playwright-core'
import pingsConfig from '#config/pings'
import Order from '#orders/models/order'
import { releaseRunner } from '#release/services/release_runner'
import { SimulatorEngine } from '#release/services/checkout_engines'
import { pingDelivery } from '#notifications/services/ping_delivery'
import { releasedProductWithOrders } from '#tests/support/release'
import { LocalPushService, type PushSubscriptionJson } from '#tests/support/push_service'
import { until } from '#tests/support/http_sink'
import { baseUrl, signInAs, useBrowser, waitUntil } from './helpers.js'

/*
| Web push in a real Chromium. Chromium offline cannot reach Google's push service, so the one
| step it cannot take here is its own sign-up with it: `PushManager.subscribe` is answered by the
| test with a subscription of a push service running in the test (its endpoint and keys), the
| rest is real: the page's permission prompt and calls, the server storing the subscription,
| encrypting and signing the order's result for it, the push service opening it, and the
| service worker of the storefront receiving it (delivered through the DevTools protocol, as the
| push service would) and showing the notification.
*/

/** Answers PushManager.subscribe with the subscription the test puts in `__pushStub.next`. */
const PUSH_STUB = `(() => {
  const stub = (window.__pushStub = { calls: [], subscription: null, next: null })
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey)
    stub.calls.push({ userVisibleOnly: options.userVisibleOnly, key: Array.from(key) })
    const json = stub.next
    stub.subscription = {
      endpoint: json.endpoint,
      options,
      toJSON: () => json,
      unsubscribe: async () => { stub.subscription = null; return true },
    }
    return stub.subscription
  }
  PushManager.prototype.getSubscription = async function () { return stub.subscription }
})()`

/** The storefront's service worker registration id, through the DevTools protocol. */
async function serviceWorkerRegistration(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = []
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) =>
    registrations.push(...event.registrations)
  )
  await cdp.send('ServiceWorker.enable')
  const deadline = Date.now() + 10_000
  while (!registrations.some((item) => item.scopeURL === `${baseUrl()}/` && !item.isDeleted)) {
    if (Date.now() > deadline) throw new Error('No service worker registration for /')
    await page.waitForTimeout(50)
  }
  const { registrationId } = registrations.find((item) => item.scopeURL === `${baseUrl()}/`)!
  return { cdp, registrationId }
}

test.group('Web push in Chromium: the service worker shows an order’s result', (group) => {
  const browser = useBrowser(group)
  const push = new LocalPushService()
  const savedHosts = pingsConfig.pushServiceHosts
  group.setup(async () => {
    await push.start()
    pingsConfig.pushServiceHosts = ['127.0.0.1']
    return async () => {
      pingsConfig.pushServiceHosts = savedHosts
      await push.stop()
    }
  })
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the storefront serves its service worker from the root, revalidated on every visit', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    const response = await page.request.get('/sw.js', { headers: { 'accept-encoding': 'br' } })
    assert.equal(response.status(), 200)
    assert.match(response.headers()['content-type'], /javascript/)
    assert.equal(response.headers()['cache-control'], 'no-cache')
    await page.goto('/how-it-works')
    await waitUntil(page, 'navigator.serviceWorker.controller !== null', 15_000)
    const scope = await page.evaluate<string>(
      'navigator.serviceWorker.ready.then((registration) => registration.scope)'
    )
    assert.equal(scope, `${baseUrl()}/`)
  })

  test('a customer turns notifications on; the push of their order’s result is shown by the service worker', async ({
    assert,
  }) => {
    const page = await browser.newPage()
    await page.context().grantPermissions(['notifications'], { origin: baseUrl() })
    await page.addInitScript(PUSH_STUB)
    const { product, orders, customers } = await releasedProductWithOrders(1)
    const [{ user }] = customers
    await signInAs(page, user)
    await page.goto('/user/orders')
    const card = page.locator('.order', { hasText: product.title })
    await card.locator('.status', { hasText: 'Pending' }).waitFor()
    const panel = page.getByTestId('pings')
    await panel.getByText('Off in this browser.').waitFor()

    // The customer turns notifications on: permission granted, subscribed with our key.
    const subscription: PushSubscriptionJson = push.subscribe()
    await page.evaluate(`window.__pushStub.next = ${JSON.stringify(subscription)}`)
    await panel.getByRole('button', { name: 'Turn on notifications' }).click()
    await panel.getByText('Notifications are on in this browser.').waitFor()
    const calls =
      await page.evaluate<{ userVisibleOnly: boolean; key: number[] }[]>('window.__pushStub.calls')
    assert.lengthOf(calls, 1)
    assert.isTrue(calls[0].userVisibleOnly)
    assert.equal(
      Buffer.from(calls[0].key).toString('base64url'),
      pingsConfig.vapid!.publicKey,
      'subscribed with the server’s VAPID key'
    )
    const stored = await db.from('push_subscriptions').where('user_id', user.id)
    assert.deepEqual(
      stored.map((row) => row.endpoint),
      [subscription.endpoint]
    )

    // Release day: the order succeeds; its ping goes to the push service, encrypted and signed.
    await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 1, seed: 'browser-push', delayMs: 0 }),
    })
    const delivered = await pingDelivery.deliverDue()
    assert.equal(delivered.sent, 1)
    const [message] = push.messagesFor(subscription)
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(message.payload.title, `Secured: ${product.title}`)

    // The push service hands it to the browser: Chromium's service worker shows it. A push
    // service delivers again until the browser takes a message, and so does the test: on a busy
    // machine a first delivery can reach the service worker while Chromium is still waking it,
    // and is then dropped (the notification's tag makes a second delivery replace, not add).
    const { cdp, registrationId } = await serviceWorkerRegistration(page)
    type Shown = { title: string; body: string; tag: string; url: string }[]
    const notifications = () =>
      page.evaluate<Shown>(
        `navigator.serviceWorker.ready
          .then((registration) => registration.getNotifications())
          .then((list) => list.map((item) => ({
            title: item.title, body: item.body, tag: item.tag, url: item.data && item.data.url,
          })))`
      )
    let shown: Shown = []
    for (let delivery = 0; delivery < 3 && shown.length === 0; delivery++) {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: baseUrl(),
        registrationId,
        data: JSON.stringify(message.payload),
      })
      shown = await until(notifications, (list) => list.length > 0, 10_000)
    }
    assert.deepEqual(shown, [
      {
        title: `Secured: ${product.title}`,
        body: message.payload.body,
        tag: `order-${order.publicId}`,
        url: '/user/orders',
      },
    ])
    // The open page heard it from the service worker and shows the result.
    await card.locator('.status', { hasText: 'Success' }).waitFor()

    // Turned off: the subscription is gone from the server too.
    await panel.getByRole('button', { name: 'Turn off' }).click()
    await panel.getByText('Notifications are off in this browser.').waitFor()
    const left = await db.from('push_subscriptions').where('user_id', user.id)
    assert.lengthOf(left, 0)
  }).timeout(90_000)

  test('a browser that cannot sign up with its push service is told so', async () => {
    // Chromium's own sign-up, not answered by the test: refused in this browser context.
    const page = await browser.newPage()
    await page.context().grantPermissions(['notifications'], { origin: baseUrl() })
    const { customers } = await releasedProductWithOrders(1)
    await signInAs(page, customers[0].user)
    await page.goto('/user/orders')
    const panel = page.getByTestId('pings')
    await panel.getByRole('button', { name: 'Turn on notifications' }).click()
    await panel
      .getByRole('alert')
      .getByText('Your browser could not sign up with its push service')
      .waitFor({ timeout: 30_000 })
  }).timeout(60_000)
})
