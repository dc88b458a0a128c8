import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import pingsConfig from '#config/pings'
import { clock } from '#core/services/clock'
import Order from '#orders/models/order'
import { orderNumber } from '#orders/services/order_numbers'
import { releaseRunner } from '#release/services/release_runner'
import { SimulatorEngine } from '#release/services/checkout_engines'
import { orderEmails } from '#notifications/services/order_emails'
import { pingDelivery } from '#notifications/services/ping_delivery'
import { drawRunner } from '#draws/services/draw_runner'
import {
  customerWithCard,
  customerWithToken,
  placeHolds,
  profileFor,
  TEST_CARDS,
} from '#tests/helpers'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import { releasedProductWithOrders } from '#tests/support/release'
import { plannedRelease } from '#tests/support/report'
import { distinctCard, drawProfileData, DRAW_CARDS, recordedDraw } from '#tests/support/draws'
import {
  LocalPushService,
  offCurve,
  storeUnchecked,
  type PushSubscriptionJson,
} from '#tests/support/push_service'
import { HttpSink } from '#tests/support/http_sink'

const DISCORD_ID = '112233445566778899'
const DISCORD_TOKEN = 'tok-AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789'
const DISCORD_URL = `https://discord.com/api/webhooks/${DISCORD_ID}/${DISCORD_TOKEN}`

test.group('Pings: web push and Discord, besides the e-mail', (group) => {
  const push = new LocalPushService()
  const discord = new HttpSink()
  const saved = { ...pingsConfig }

  group.setup(async () => {
    await push.start()
    await discord.start()
    return async () => {
      await push.stop()
      await discord.stop()
    }
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    push.received = []
    push.refused = []
    discord.received = []
    discord.status = 200
    discord.reply = null
    pingsConfig.pushServiceHosts = ['127.0.0.1']
    pingsConfig.discordApiUrl = discord.url('').replace(/\/$/, '')
    return async () => {
      Object.assign(pingsConfig, saved)
      await rollback()
    }
  })

  /** A browser of this customer turns notifications on (its subscription sent to us). */
  async function turnOn(client: any, token: string): Promise<PushSubscriptionJson> {
    const subscription = push.subscribe()
    const response = await client.post('/api/user/pings/push').bearerToken(token).json(subscription)
    response.assertStatus(201)
    return subscription
  }

  test('a customer turns push on and off, and sets a Discord webhook; bad input is a 4xx', async ({
    client,
    assert,
  }) => {
    const { token, user } = await customerWithToken()
    const anonymous = await client.get('/api/user/pings')
    anonymous.assertStatus(401)

    const before = await client.get('/api/user/pings').bearerToken(token)
    before.assertStatus(200)
    assert.deepEqual(before.body(), {
      push: { available: true, publicKey: pingsConfig.vapid!.publicKey, subscriptions: 0 },
      discord: { configured: false, hint: null },
    })
    const config = await client.get('/api/config')
    assert.equal(config.body().pushPublicKey, pingsConfig.vapid!.publicKey)

    const subscription = await turnOn(client, token)
    const again = await client.post('/api/user/pings/push').bearerToken(token).json(subscription)
    assert.equal(again.body().push.subscriptions, 1, 'the same browser twice is one subscription')

    for (const endpoint of [
      'https://evil.example/push/1',
      'http://10.0.0.7/push/1',
      'ftp://127.0.0.1/push',
      'not a url',
    ]) {
      const refused = await client
        .post('/api/user/pings/push')
        .bearerToken(token)
        .json({ ...subscription, endpoint })
      refused.assertStatus(422)
      assert.include(['invalid_endpoint', 'validation_failed'], refused.body().code)
    }
    const badKeys = await client
      .post('/api/user/pings/push')
      .bearerToken(token)
      .json({ endpoint: subscription.endpoint, keys: { p256dh: 'short', auth: 'x' } })
    badKeys.assertStatus(422)
    assert.equal(
      badKeys.body().errors['keys.p256dh'],
      "The subscription's p256dh key must be a P-256 public key (base64url)."
    )

    const set = await client
      .put('/api/user/pings/discord')
      .bearerToken(token)
      .json({ url: DISCORD_URL })
    set.assertStatus(200)
    assert.deepEqual(set.body().discord, { configured: true, hint: 'webhook 1122…8899' })
    const stored = await db.from('ping_settings').where('user_id', user.id).firstOrFail()
    assert.notInclude(stored.discord_webhook_vault, DISCORD_TOKEN, 'sealed at rest')
    for (const url of [
      `http://discord.com/api/webhooks/${DISCORD_ID}/${DISCORD_TOKEN}`,
      `https://discord.example/api/webhooks/${DISCORD_ID}/${DISCORD_TOKEN}`,
      'https://hooks.slack.com/services/T000/B000/XXXX',
      `https://discord.com/api/webhooks/${DISCORD_ID}`,
    ]) {
      const refused = await client.put('/api/user/pings/discord').bearerToken(token).json({ url })
      refused.assertStatus(422)
      refused.assertBodyContains({ code: 'invalid_discord_webhook' })
    }

    const off = await client
      .post('/api/user/pings/push/delete')
      .bearerToken(token)
      .json({ endpoint: subscription.endpoint })
    assert.equal(off.body().push.subscriptions, 0)
    const cleared = await client.delete('/api/user/pings/discord').bearerToken(token)
    assert.deepEqual(cleared.body().discord, { configured: false, hint: null })
  })

  test("an order's result reaches each browser and Discord once, in the e-mail's dedupe", async ({
    client,
    assert,
  }) => {
    const { product, orders, customers } = await releasedProductWithOrders(1)
    const [{ token }] = customers
    const laptop = await turnOn(client, token)
    const phone = await turnOn(client, token)
    await client.put('/api/user/pings/discord').bearerToken(token).json({ url: DISCORD_URL })

    await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 1, seed: 'pings', delayMs: 0 }),
    })
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'success')
    const report = await pingDelivery.deliverDue()
    assert.deepEqual(report, { sent: 3, gone: 0, failed: 0, retrying: 0 })

    assert.deepEqual(push.refused, [])
    for (const browser of [laptop, phone]) {
      const [message] = push.messagesFor(browser)
      assert.deepEqual(message.payload, {
        title: `Secured: ${product.title}`,
        body: `Order ${orderNumber(order.id)} went through (retailer confirmation ${order.confirmationNumber}).`,
        url: '/user/orders',
        tag: `order-${order.publicId}`,
      })
      assert.equal(message.ttl, '86400')
      assert.equal(message.vapidKey, pingsConfig.vapid!.publicKey)
      assert.equal(message.claims.sub, 'mailto:support@dropslot.test')
    }
    assert.lengthOf(discord.received, 1)
    assert.equal(discord.received[0].path, `/api/webhooks/${DISCORD_ID}/${DISCORD_TOKEN}?wait=true`)
    assert.include(discord.received[0].json.content, `**Secured: ${product.title}**`)
    assert.deepEqual(discord.received[0].json.allowed_mentions, { parse: [] })

    // Once: the sweep again, the outcome e-mail asked for again (deduplicated), a resend.
    assert.deepEqual(await pingDelivery.deliverDue(), { sent: 0, gone: 0, failed: 0, retrying: 0 })
    assert.isFalse(await orderEmails.sendOutcome(order))
    await orderEmails.resend(order)
    await pingDelivery.deliverDue()
    assert.lengthOf(push.received, 2)
    assert.lengthOf(discord.received, 1)
    const emails = await db.from('email_messages').where('order_id', order.id)
    assert.equal(emails.filter((row) => row.template === 'order_secured').length, 2)
    assert.deepEqual(
      emails.filter((row) => row.ping_status !== null).map((row) => row.ping_status),
      ['done']
    )
  })

  test('every kind of outcome is pushed: failure, fee due, a card check to confirm, a draw result', async ({
    client,
    assert,
  }) => {
    const titles = new Map<string, string>()
    // A failure and a fee declined (a card that declines charges after the check... placed by
    // a working card, then the customer's card swapped for one that declines).
    const release = await plannedRelease([
      { size: '9', result: 'sold_out' },
      { size: '10', result: 'success' },
    ])
    const [failing, feeDue] = release.customers
    const failingBrowser = await turnOn(client, failing.token)
    const feeBrowser = await turnOn(client, feeDue.token)
    const { saveCardFor } = await import('#tests/helpers')
    await saveCardFor(feeDue.user, TEST_CARDS.declinesCharges)
    await releaseRunner.run({ productId: release.product.id, engine: release.engine })

    // A card check the bank wants confirmed.
    const needsAuth = await customerWithCard(TEST_CARDS.needsAuthentication)
    const authBrowser = await turnOn(client, needsAuth.token)
    const profile = await profileFor(needsAuth.user)
    const { productFor } = await import('#tests/helpers')
    const upcoming = await productFor({ totalStock: 5, stockTaken: 0 })
    const bought = await client
      .post('/api/checkout/withprofile')
      .bearerToken(needsAuth.token)
      .json({ productId: upcoming.id, style: 'Black', size: '9', profileId: profile.publicId })
    bought.assertStatus(201)
    await placeHolds()

    // A draw with one slot and two entries.
    // Pushed now: the draw below moves the clock to its recorded round's time, in 2023.
    await pingDelivery.deliverDue()

    // Entries open and close around a recorded beacon round, so the draw is run on it.
    const recorded = await recordedDraw(657413, { totalStock: 1 })
    const draw = recorded.product
    const entrants = []
    for (const index of [0, 1]) {
      // One entry per card: each entrant's card on file is their own.
      const entrant = await customerWithCard(distinctCard(index))
      const entryProfile = await profileFor(
        entrant.user,
        drawProfileData(index, DRAW_CARDS[index], `${index + 1} Ping Street`)
      )
      const entered = await client
        .post('/api/checkout/withprofile')
        .bearerToken(entrant.token)
        .json({ productId: draw.id, style: 'Black', size: '9', profileId: entryProfile.publicId })
      entered.assertStatus(201)
      entrants.push({ ...entrant, browser: await turnOn(client, entrant.token) })
    }
    await placeHolds()
    recorded.afterRound()
    await drawRunner.run(draw.id, { label: 'test' }, { beacon: RECORDED_ROUNDS[657413] })

    await pingDelivery.deliverDue()
    for (const [name, browser] of [
      ['failed', failingBrowser],
      ['fee due', feeBrowser],
      ['confirm', authBrowser],
      ['draw 1', entrants[0].browser],
      ['draw 2', entrants[1].browser],
    ] as const) {
      const messages = push.messagesFor(browser)
      assert.lengthOf(messages, 1, name)
      titles.set(name, messages[0].payload.title)
    }
    assert.equal(titles.get('failed'), `Not this time: ${release.product.title}`)
    assert.include(
      push.messagesFor(failingBrowser)[0].payload.body,
      'sold out at the retailer before your checkout went through. No fee is charged.'
    )
    assert.equal(titles.get('fee due'), `Fee due: ${release.product.title}`)
    assert.equal(titles.get('confirm'), 'Confirm your $1.00 card check')
    assert.sameMembers(
      [titles.get('draw 1'), titles.get('draw 2')],
      [`You won the draw: ${draw.title}`, `Not selected: ${draw.title}`]
    )
    const drawMessage = push.messagesFor(entrants[0].browser)[0].payload
    assert.equal(drawMessage.url, `/product/${draw.id}/draw`)
  })

  test('a subscription the push service says is gone is removed; the others still get it', async ({
    client,
    assert,
  }) => {
    const { product, orders, customers } = await releasedProductWithOrders(1)
    const [{ token, user }] = customers
    const kept = await turnOn(client, token)
    const gone = await turnOn(client, token)
    push.makeGone(gone)
    await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 0, seed: 'gone', delayMs: 0 }),
    })
    const report = await pingDelivery.deliverDue()
    assert.deepEqual(report, { sent: 1, gone: 1, failed: 0, retrying: 0 })
    assert.lengthOf(push.messagesFor(kept), 1)
    const left = await db.from('push_subscriptions').where('user_id', user.id)
    assert.deepEqual(
      left.map((row) => row.endpoint),
      [kept.endpoint]
    )
    const overview = await client.get('/api/user/pings').bearerToken(token)
    assert.equal(overview.body().push.subscriptions, 1)
    const deliveries = await db
      .from('ping_deliveries')
      .join('email_messages', 'email_messages.id', 'ping_deliveries.email_message_id')
      .where('email_messages.order_id', orders[0].id)
      .select('ping_deliveries.status')
    assert.sameMembers(
      deliveries.map((row) => row.status),
      ['sent', 'gone']
    )
  })

  test('a Discord that answers 500 is tried again after its back-off, and gets it once', async ({
    client,
    assert,
  }) => {
    const { product, customers } = await releasedProductWithOrders(1)
    const [{ token }] = customers
    await client.put('/api/user/pings/discord').bearerToken(token).json({ url: DISCORD_URL })
    discord.status = 500
    await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 1, seed: 'retry', delayMs: 0 }),
    })
    assert.deepEqual(await pingDelivery.deliverDue(), { sent: 0, gone: 0, failed: 0, retrying: 1 })
    discord.status = 200
    // Not before its back-off (30 s) is over.
    assert.deepEqual(await pingDelivery.deliverDue(), { sent: 0, gone: 0, failed: 0, retrying: 0 })
    clock.travel(31_000)
    assert.deepEqual(await pingDelivery.deliverDue(), { sent: 1, gone: 0, failed: 0, retrying: 0 })
    assert.deepEqual(await pingDelivery.deliverDue(), { sent: 0, gone: 0, failed: 0, retrying: 0 })
    assert.lengthOf(discord.received, 2)
  })

  test('a customer with no channel gets the e-mail only: no ping is queued', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(1)
    await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 1, seed: 'no-channel', delayMs: 0 }),
    })
    const emails = await db.from('email_messages').where('order_id', orders[0].id)
    const secured = emails.find((row) => row.template === 'order_secured')
    assert.exists(secured)
    assert.isNull(secured.ping_status)
    assert.deepEqual(await pingDelivery.dueIds(), [])
  })

  test('a test ping goes to every channel of the customer at once', async ({ client, assert }) => {
    const { token } = await customerWithToken()
    const browser = await turnOn(client, token)
    await client.put('/api/user/pings/discord').bearerToken(token).json({ url: DISCORD_URL })
    const response = await client.post('/api/user/pings/test').bearerToken(token)
    response.assertStatus(200)
    assert.containsSubset(response.body(), { push: { sent: 1 }, discord: { sent: 1 } })
    assert.equal(push.messagesFor(browser)[0].payload.title, 'Dropslot notifications are on')
    assert.lengthOf(discord.received, 1)
  })

  test('a subscription is checked before it is stored: a P-256 key, a 16-byte secret, an https endpoint', async ({
    client,
    assert,
  }) => {
    const { token, user } = await customerWithToken()
    // A known push service's host: plain HTTP to it is still refused.
    pingsConfig.pushServiceHosts = ['127.0.0.1', 'fcm.googleapis.com']
    const browser = push.subscribe()
    const keys = browser.keys
    const shortKey = Buffer.concat([Buffer.from([4]), Buffer.alloc(63, 7)]).toString('base64url')
    const cases: [string, object, string, string][] = [
      [
        'a key off the curve',
        { ...browser, keys: { ...keys, p256dh: offCurve(keys.p256dh) } },
        'keys.p256dh',
        "The subscription's p256dh key is not a point on the P-256 curve.",
      ],
      [
        'a key of 64 bytes',
        { ...browser, keys: { ...keys, p256dh: shortKey } },
        'keys.p256dh',
        "The subscription's p256dh key must be a P-256 public key (base64url).",
      ],
      [
        'a secret of 15 bytes',
        { ...browser, keys: { ...keys, auth: Buffer.alloc(15, 1).toString('base64url') } },
        'keys.auth',
        "The subscription's auth secret must be 16 bytes (base64url).",
      ],
      [
        'plain HTTP to a public host',
        { ...browser, endpoint: 'http://fcm.googleapis.com/fcm/send/abc' },
        'endpoint',
        'The endpoint must be an https URL.',
      ],
      [
        'credentials in the URL',
        { ...browser, endpoint: 'https://me:secret@fcm.googleapis.com/fcm/send/abc' },
        'endpoint',
        'The endpoint must not carry credentials.',
      ],
      [
        'not a URL',
        { ...browser, endpoint: 'fcm send abc' },
        'endpoint',
        'The endpoint must be a URL.',
      ],
    ]
    for (const [name, body, field, message] of cases) {
      const refused = await client.post('/api/user/pings/push').bearerToken(token).json(body)
      assert.equal(refused.status(), 422, name)
      assert.equal(refused.body().errors[field], message, name)
      const stored = await db.from('push_subscriptions').where('user_id', user.id)
      assert.lengthOf(stored, 0, `${name}: nothing stored`)
    }

    // Padded base64url is a browser's too: stored without its padding, and it works.
    const padded = { ...browser, keys: { p256dh: `${keys.p256dh}=`, auth: `${keys.auth}==` } }
    const accepted = await client.post('/api/user/pings/push').bearerToken(token).json(padded)
    accepted.assertStatus(201)
    const [row] = await db.from('push_subscriptions').where('user_id', user.id)
    assert.deepEqual([row.p256dh, row.auth], [keys.p256dh, keys.auth])
    const sent = await client.post('/api/user/pings/test').bearerToken(token)
    sent.assertStatus(200)
    assert.containsSubset(sent.body(), { push: { sent: 1 } })
    assert.lengthOf(push.messagesFor(browser), 1)
  })

  test('a stored subscription whose key is off the curve is removed when tested: a 4xx, never a 500', async ({
    client,
    assert,
  }) => {
    const { token, user } = await customerWithToken()
    const browser = push.subscribe()
    await storeUnchecked(user.id, {
      ...browser,
      keys: { ...browser.keys, p256dh: offCurve(browser.keys.p256dh) },
    })
    const tested = await client.post('/api/user/pings/test').bearerToken(token)
    tested.assertStatus(422)
    tested.assertBodyContains({
      code: 'push_subscription_invalid',
      error:
        'The notifications of a browser of yours were set up with keys that do not work, so they are now off. Turn them on again in that browser.',
    })
    const overview = await client.get('/api/user/pings').bearerToken(token)
    assert.equal(overview.body().push.subscriptions, 0)
    assert.deepEqual(push.received, [])

    // Another channel got the test: the answer is its report, the broken browser counted gone.
    await storeUnchecked(user.id, { ...browser, keys: { ...browser.keys, auth: 'c2hvcnQ' } })
    await client.put('/api/user/pings/discord').bearerToken(token).json({ url: DISCORD_URL })
    const mixed = await client.post('/api/user/pings/test').bearerToken(token)
    mixed.assertStatus(200)
    assert.containsSubset(mixed.body(), { push: { sent: 0, gone: 1 }, discord: { sent: 1 } })
    assert.lengthOf(await db.from('push_subscriptions').where('user_id', user.id), 0)
  })

  test('an outcome ping to a stored subscription with bad keys removes it; the others still get it', async ({
    client,
    assert,
  }) => {
    const { product, orders, customers } = await releasedProductWithOrders(1)
    const [{ token, user }] = customers
    const kept = await turnOn(client, token)
    const broken = push.subscribe()
    await storeUnchecked(user.id, {
      ...broken,
      keys: { ...broken.keys, p256dh: offCurve(broken.keys.p256dh) },
    })
    await releaseRunner.run({
      productId: product.id,
      engine: new SimulatorEngine({ successRate: 1, seed: 'bad-keys', delayMs: 0 }),
    })
    assert.deepEqual(await pingDelivery.deliverDue(), { sent: 1, gone: 1, failed: 0, retrying: 0 })
    assert.lengthOf(push.messagesFor(kept), 1)
    assert.deepEqual(push.messagesFor(broken), [])
    const left = await db.from('push_subscriptions').where('user_id', user.id)
    assert.deepEqual(
      left.map((row) => row.endpoint),
      [kept.endpoint]
    )
    const deliveries = await db
      .from('ping_deliveries')
      .join('email_messages', 'email_messages.id', 'ping_deliveries.email_message_id')
      .where('email_messages.order_id', orders[0].id)
      .select('ping_deliveries.status', 'ping_deliveries.last_error')
    assert.sameDeepMembers(deliveries, [
      { status: 'sent', last_error: null },
      {
        status: 'gone',
        last_error: "the subscription's p256dh key is not a point on the P-256 curve",
      },
    ])
  })
})
