import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { paymentKeys } from '#payments/services/payment_service'
import { CARD_AUTHENTICATION_FAILED } from '#payments/gateways/payment_gateway'
import EmailMessage from '#notifications/models/email_message'
import { sqlTime } from '#core/helpers/sql_time'
import paymentsConfig from '#config/payments'
import { signStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { clock } from '#core/services/clock'
import {
  adminWithToken,
  customerWithToken,
  envelope,
  pendingOrder,
  placeHolds,
  sandboxChallengeLink,
  TEST_CARDS,
} from '#tests/helpers'

/*
| Cards whose bank asks for 3-D Secure, on the sandbox gateway: saving one answers the challenge,
| the customer completes or fails it on the sandbox's stand-in page, and billing/confirmCard
| saves the card or says plainly that it was not.
*/
const billingAddress = {
  address1: '1 Main St',
  city: 'Springfield',
  zip: '12345',
  state: 'IL',
  country: 'US',
}

type Client = ApiClient

async function startSaving(client: Client, token: string, number: string) {
  const generated = await client
    .post('/api/user/billing/genToken')
    .bearerToken(token)
    .json({
      encrypted: envelope({
        name: 'Test Customer',
        number,
        exp_month: 12,
        exp_year: DateTime.now().year + 1,
        cvc: '123',
        address_zip: '12345',
      }),
    })
  generated.assertStatus(200)
  return client
    .post('/api/user/billing/set')
    .bearerToken(token)
    .json({ billingAddress, token: generated.body().id })
}

async function answerChallenge(client: Client, url: string, answer: string, returnTo?: string) {
  return client
    .post(url)
    .form({ answer, ...(returnTo ? { return_to: returnTo } : {}) })
    .redirects(0)
}

test.group('3-D Secure when a card is saved', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a 3155 card answers the challenge; completing it saves the card', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const started = await startSaving(client, token, TEST_CARDS.authenticateOnSetup)
    started.assertStatus(202)
    started.assertBodyContains({ success: false, code: 'card_authentication_required' })
    const { setupId, challengeUrl, clientSecret } = started.body().authentication
    assert.match(setupId, /^seti_sbx_/)
    assert.match(challengeUrl, new RegExp(`^/sandbox/3ds/${setupId}\\?t=\\d+\\.[0-9a-f]{64}$`))
    assert.isNull(clientSecret)
    assert.notInclude(JSON.stringify(started.body()), TEST_CARDS.authenticateOnSetup)

    // Not on file until the customer has authenticated; the address is not written either.
    const before = await client.get('/api/user/info').bearerToken(token)
    assert.notEqual(before.body().billingLast4, '3155')
    await user.refresh()
    assert.isNull(user.cardPaymentMethodId)
    assert.match(user.gatewayCustomerId!, /^cus_sbx_/)

    const page = await client.get(`${challengeUrl}&return_to=/addCard?next=/shop`)
    page.assertStatus(200)
    assert.include(page.text(), 'Complete authentication')
    assert.include(page.text(), 'Fail authentication')
    assert.include(page.text(), 'sandbox stand-in')
    assert.include(page.text(), 'ending in 3155')
    assert.notInclude(page.text(), TEST_CARDS.authenticateOnSetup)

    const answered = await answerChallenge(client, challengeUrl, 'complete', '/addCard?next=/shop')
    answered.assertStatus(303)
    assert.equal(answered.header('location'), `/addCard?next=/shop&setup_intent=${setupId}`)

    const confirmed = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(token)
      .json({ setupId })
    confirmed.assertStatus(200)
    confirmed.assertBodyContains({ success: true, user: { billingLast4: '3155' } })
    await user.refresh()
    assert.match(user.cardPaymentMethodId!, /^pm_sbx_/)

    // Confirming again is the same answer, through the same ledger row and key.
    const again = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(token)
      .json({ setupId })
    again.assertStatus(200)
    const rows = await PaymentLedgerEntry.query().where('user_id', user.id).orderBy('id')
    const keys = rows.map((row) => row.idempotencyKey)
    assert.equal(new Set(keys).size, keys.length)
    assert.include(keys, paymentKeys.cardSetup(user.uuid, setupId))
    const setupRow = rows.find((row) => row.gatewayRef === setupId)!
    assert.equal(setupRow.status, 'succeeded')
    assert.notInclude(JSON.stringify(rows.map((row) => row.serialize())), '4000002500003155')

    // Off-session payments pass on this card once it was authenticated.
    const method = await db.from('sandbox_payment_methods').where('id', user.cardPaymentMethodId!)
    assert.equal(method[0].behaviour, 'ok')
  })

  test('failing the challenge leaves no card and says so in plain words', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const started = await startSaving(client, token, TEST_CARDS.authenticateOnSetup)
    started.assertStatus(202)
    const { setupId, challengeUrl } = started.body().authentication

    const answered = await answerChallenge(client, challengeUrl, 'fail', '/account')
    answered.assertStatus(303)
    assert.equal(answered.header('location'), `/account?setup_intent=${setupId}`)

    const refused = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(token)
      .json({ setupId })
    refused.assertStatus(402)
    refused.assertBodyContains({ code: 'card_authentication_failed' })
    assert.equal(refused.body().error, CARD_AUTHENTICATION_FAILED)
    assert.notInclude(refused.body().error, 'another card')
    await user.refresh()
    assert.isNull(user.cardPaymentMethodId)
    // None saved for this customer (other tests' processes may have saved cards for good).
    const setup = await db.from('sandbox_setup_intents').where('id', setupId).firstOrFail()
    assert.lengthOf(
      await db.from('sandbox_payment_methods').where('customer_id', setup.customer_id),
      0
    )

    // The answer cannot be changed afterwards.
    await answerChallenge(client, challengeUrl, 'complete')
    const still = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(token)
      .json({ setupId })
    still.assertStatus(402)
  })

  test('before the customer answers, the confirmation waits; a 3184 card is saved after it', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const started = await startSaving(client, token, TEST_CARDS.needsAuthentication)
    started.assertStatus(202)
    const { setupId, challengeUrl } = started.body().authentication

    const waiting = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(token)
      .json({ setupId })
    waiting.assertStatus(202)
    waiting.assertBodyContains({ authentication: { setupId } })
    // The same page, with a pass of its own (handed out afresh each time).
    const again = waiting.body().authentication.challengeUrl
    assert.equal(again.split('?')[0], challengeUrl.split('?')[0])
    assert.match(again, /\?t=\d+\.[0-9a-f]{64}$/)

    const done = await answerChallenge(client, challengeUrl, 'complete')
    done.assertStatus(200)
    assert.include(done.text(), 'Card authenticated')

    const confirmed = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(token)
      .json({ setupId })
    confirmed.assertStatus(200)
    confirmed.assertBodyContains({ user: { billingLast4: '3184' } })
    const row = await PaymentLedgerEntry.findByOrFail(
      'idempotencyKey',
      paymentKeys.cardSetup(user.uuid, setupId)
    )
    assert.equal(row.status, 'succeeded')
    assert.equal(row.attempts, 2)
  })

  test('bad confirmations are clear 4xx answers, never another customer’s card', async ({
    client,
    assert,
  }) => {
    const owner = await customerWithToken()
    const started = await startSaving(client, owner.token, TEST_CARDS.authenticateOnSetup)
    const { setupId, challengeUrl } = started.body().authentication
    await answerChallenge(client, challengeUrl, 'complete')

    const other = await customerWithToken()
    const stolen = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(other.token)
      .json({ setupId })
    stolen.assertStatus(404)
    await other.user.refresh()
    assert.isNull(other.user.cardPaymentMethodId)

    // The other customer with a customer at the gateway of their own: still not theirs.
    await startSaving(client, other.token, TEST_CARDS.authenticateOnSetup)
    const stillStolen = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(other.token)
      .json({ setupId })
    stillStolen.assertStatus(404)

    for (const body of [{}, { setupId: 12 }, { setupId: '../x' }, { setupId: 'a'.repeat(300) }]) {
      const response = await client
        .post('/api/user/billing/confirmCard')
        .bearerToken(owner.token)
        .json(body)
      response.assertStatus(422)
    }
    const unknown = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(owner.token)
      .json({ setupId: 'seti_sbx_000000000000000000000000' })
    unknown.assertStatus(404)
  })

  test('the challenge page refuses unknown setups, odd answers and other sites as return paths', async ({
    client,
    assert,
  }) => {
    const { token } = await customerWithToken()
    const started = await startSaving(client, token, TEST_CARDS.authenticateOnSetup)
    const { challengeUrl } = started.body().authentication

    const unknown = await client.get('/sandbox/3ds/seti_sbx_000000000000000000000000')
    unknown.assertStatus(404)
    const malformed = await client.get('/sandbox/3ds/nope')
    malformed.assertStatus(404)
    const odd = await answerChallenge(client, challengeUrl, 'maybe')
    odd.assertStatus(422)

    const page = await client.get(`${challengeUrl}&return_to=//evil.example/x`)
    page.assertStatus(200)
    assert.notInclude(page.text(), 'evil.example')
    const answered = await answerChallenge(client, challengeUrl, 'complete', 'https://evil.example')
    answered.assertStatus(200)
    assert.isUndefined(answered.header('location'))
  })

  test('one-step checkout with a card that needs authentication is a clear 402', async ({
    assert,
  }) => {
    const { user } = await customerWithToken()
    const { paymentService } = await import('#payments/services/payment_service')
    const { billingCardService } = await import('#accounts/services/billing_card_service')
    const token = await paymentService.createCardToken(
      {
        number: TEST_CARDS.authenticateOnSetup,
        expMonth: 12,
        expYear: DateTime.now().year + 1,
        cvc: '123',
      },
      user.id
    )
    await assert.rejects(() => billingCardService.saveToken(user, token.id), /confirm this card/)
    await user.refresh()
    assert.isNull(user.cardPaymentMethodId)
  })
})

test.group('3-D Secure on the $1.00 card check', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  async function waitingHold() {
    const customer = await pendingOrder({ card: TEST_CARDS.needsAuthentication })
    const report = await placeHolds()
    if (report.waiting !== 1) throw new Error('The hold should wait for the customer.')
    await customer.order.refresh()
    return customer
  }

  test('the hold waits with "needs your confirmation" and is placed once after the challenge', async ({
    client,
    assert,
  }) => {
    const { order, token, user } = await waitingHold()
    assert.equal(order.status, 'pending')
    assert.equal(order.holdStatus, 'requires_action')
    assert.match(order.holdPaymentId!, /^pi_sbx_/)

    const listed = await client.get('/api/user/orders').bearerToken(token)
    const shown = listed.body()[0]
    assert.equal(shown.hold.status, 'requires_action')
    assert.isString(shown.hold.confirmBy)
    assert.isTrue(DateTime.fromISO(shown.hold.confirmBy) > DateTime.now())

    // The customer is told by e-mail, once, with the way back to the orders page.
    await placeHolds()
    const emails = await EmailMessage.query()
      .where('order_id', order.id)
      .where('template', 'hold_needs_confirmation')
    assert.lengthOf(emails, 1)
    assert.include(emails[0].textBody, 'Confirm card check')
    assert.include(emails[0].textBody, '/user/orders')
    assert.notInclude(emails[0].textBody, TEST_CARDS.needsAuthentication)

    const asked = await client
      .post(`/api/user/orders/${order.publicId}/hold/authenticate`)
      .bearerToken(token)
    asked.assertStatus(200)
    const { challengeUrl, paymentId } = asked.body().authentication
    assert.equal(paymentId, order.holdPaymentId)
    assert.isTrue(challengeUrl.startsWith(`/sandbox/3ds/${order.holdPaymentId}?t=`))

    const early = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    early.assertStatus(202)

    // A failed try is told plainly and the hold still waits: the customer may try again.
    await answerChallenge(client, challengeUrl, 'fail', '/orders')
    const refused = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    refused.assertStatus(402)
    refused.assertBodyContains({ code: 'hold_authentication_failed' })
    await order.refresh()
    assert.equal(order.holdStatus, 'requires_action')

    const page = await client.get(`${challengeUrl}&return_to=/orders`)
    assert.include(page.text(), '$1.00 card check')
    const answered = await answerChallenge(client, challengeUrl, 'complete', '/orders')
    answered.assertStatus(303)
    assert.equal(answered.header('location'), `/orders?payment_intent=${order.holdPaymentId}`)

    const placed = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    placed.assertStatus(200)
    placed.assertBodyContains({ hold: { status: 'placed' } })
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    assert.equal(order.status, 'pending')

    // Once: one payment at the gateway, one hold row, every key used once.
    await placeHolds()
    const again = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    again.assertStatus(200)
    const intents = await db
      .from('sandbox_payment_intents')
      .where('customer_id', user.gatewayCustomerId!)
    assert.lengthOf(intents, 1)
    assert.equal(intents[0].status, 'requires_capture')
    const rows = await PaymentLedgerEntry.query().where('order_id', order.id)
    assert.deepEqual(
      rows.map((row) => [row.kind, row.status, row.gatewayRef]),
      [['hold', 'succeeded', order.holdPaymentId]]
    )
    assert.equal(rows[0].idempotencyKey, paymentKeys.hold(order))
    const everyRow = await PaymentLedgerEntry.all()
    const keys = everyRow.map((row) => row.idempotencyKey)
    assert.equal(new Set(keys).size, keys.length)
  })

  test('webhooks about the waiting hold do not decline it; the one after authentication places it', async ({
    client,
    assert,
  }) => {
    const { order } = await waitingHold()
    const send = async (type: string) => {
      const payload = JSON.stringify({
        id: `evt_3ds_${type}_${Date.now()}`,
        object: 'event',
        type,
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: order.holdPaymentId, object: 'payment_intent' } },
      })
      const response = await client
        .post('/api/hooks/stripe')
        .unsafeJson(payload)
        .header(
          'stripe-signature',
          signStripeStyleWebhook(payload, paymentsConfig.sandbox.webhookSecret)
        )
      response.assertStatus(200)
      return response.body().outcome
    }
    assert.equal(await send('payment_intent.payment_failed'), 'hold_requires_action')
    await order.refresh()
    assert.equal(order.holdStatus, 'requires_action')
    const row = await PaymentLedgerEntry.findByOrFail('idempotencyKey', paymentKeys.hold(order))
    assert.equal(row.status, 'started')

    await answerChallenge(client, await sandboxChallengeLink(order.holdPaymentId!), 'complete')
    assert.equal(await send('payment_intent.amount_capturable_updated'), 'hold_placed')
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
  })

  test('only the order’s customer can confirm its card check', async ({ client }) => {
    const { order } = await waitingHold()
    const other = await customerWithToken()
    for (const path of [
      `/api/user/orders/${order.publicId}/hold/authenticate`,
      `/api/user/orders/${order.publicId}/hold/confirm`,
      '/api/user/orders/nope/hold/confirm',
    ]) {
      const response = await client.post(path).bearerToken(other.token)
      response.assertStatus(404)
    }
  })

  test('a hold nobody confirms in time cancels the order and gives the slot back', async ({
    client,
    assert,
  }) => {
    const { order, product, token } = await waitingHold()
    await product.refresh()
    assert.equal(product.stockTaken, 1)
    await db
      .from('orders')
      .where('id', order.id)
      .update({ hold_next_attempt_at: sqlTime(DateTime.now().minus({ minutes: 1 })) })

    const report = await placeHolds()
    assert.include(report, { expired: 1 })
    await order.refresh()
    assert.equal(order.status, 'cancelled')
    assert.equal(order.holdStatus, 'declined')
    assert.equal(order.failReason, 'hold_declined:authentication_required')
    await product.refresh()
    assert.equal(product.stockTaken, 0)
    const email = await EmailMessage.query()
      .where('order_id', order.id)
      .where('template', 'hold_declined')
      .firstOrFail()
    assert.include(email.textBody, 'authentication')

    // The waiting payment is cancelled at the gateway: a late answer authorises nothing.
    const intent = await db
      .from('sandbox_payment_intents')
      .where('id', order.holdPaymentId!)
      .first()
    assert.equal(intent.status, 'canceled')
    await answerChallenge(client, await sandboxChallengeLink(order.holdPaymentId!), 'complete')
    const still = await db.from('sandbox_payment_intents').where('id', order.holdPaymentId!).first()
    assert.equal(still.status, 'canceled')
    const late = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    late.assertStatus(409)

    const rows = await PaymentLedgerEntry.query().where('order_id', order.id).orderBy('id')
    assert.deepEqual(
      rows.map((row) => [row.kind, row.status]),
      [
        ['hold', 'failed'],
        ['hold_release', 'succeeded'],
      ]
    )
    assert.equal(rows[1].idempotencyKey, paymentKeys.holdRelease(order))

    await placeHolds()
    assert.lengthOf(
      await EmailMessage.query().where('order_id', order.id).where('template', 'hold_declined'),
      1
    )
  })

  test('a hold authenticated without coming back to confirm is placed at its deadline, not cancelled', async ({
    client,
    assert,
  }) => {
    const { order, product } = await waitingHold()
    // The customer answered the bank's challenge but never came back to the orders page.
    await answerChallenge(client, await sandboxChallengeLink(order.holdPaymentId!), 'complete')
    await db
      .from('orders')
      .where('id', order.id)
      .update({ hold_next_attempt_at: sqlTime(DateTime.now().minus({ minutes: 1 })) })

    const report = await placeHolds()
    assert.include(report, { expired: 0, placed: 1 })
    await order.refresh()
    assert.equal(order.status, 'pending')
    assert.equal(order.holdStatus, 'placed')
    await product.refresh()
    assert.equal(product.stockTaken, 1)
    const rows = await PaymentLedgerEntry.query().where('order_id', order.id).orderBy('id')
    assert.deepEqual(
      rows.map((row) => [row.kind, row.status]),
      [['hold', 'succeeded']]
    )
    assert.lengthOf(
      await EmailMessage.query().where('order_id', order.id).where('template', 'hold_declined'),
      0
    )
  })

  test('the deadline is the product’s release when that comes first', async ({ assert }) => {
    const releaseAt = DateTime.now().plus({ hours: 2 }).startOf('second')
    const customer = await pendingOrder({
      card: TEST_CARDS.needsAuthentication,
      product: { releaseAt },
    })
    await placeHolds()
    await customer.order.refresh()
    assert.equal(customer.order.holdStatus, 'requires_action')
    assert.equal(customer.order.holdNextAttemptAt!.toUnixInteger(), releaseAt.toUnixInteger())
  })
})

test.group('3-D Secure: a waiting card check ends with its order', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  async function waitingHold(product: Record<string, unknown> = {}) {
    const customer = await pendingOrder({ card: TEST_CARDS.needsAuthentication, product })
    await placeHolds()
    await customer.order.refresh()
    if (customer.order.holdStatus !== 'requires_action') throw new Error('Not waiting.')
    return customer
  }

  const intentOf = (id: string) => db.from('sandbox_payment_intents').where('id', id).first()

  test('an admin cancels the order: the waiting payment is cancelled at the gateway, confirming it is refused', async ({
    client,
    assert,
  }) => {
    const { order, token, product } = await waitingHold()
    const paymentId = order.holdPaymentId!
    const link = await sandboxChallengeLink(paymentId)
    const admin = await adminWithToken()

    const cancelled = await client
      .delete(`/api/admin/orders/id/${order.publicId}`)
      .bearerToken(admin.token)
    cancelled.assertStatus(200)
    await order.refresh()
    assert.equal(order.status, 'cancelled')
    assert.equal(order.holdStatus, 'released')
    await product.refresh()
    assert.equal(product.stockTaken, 0)

    // The sandbox's own tables: the waiting payment is cancelled, by us.
    const intent = await intentOf(paymentId)
    assert.equal(intent.status, 'canceled')
    assert.equal(intent.cancellation_reason, 'abandoned')
    const rows = await PaymentLedgerEntry.query().where('order_id', order.id).orderBy('id')
    assert.deepEqual(
      rows.map((row) => [row.kind, row.status, row.idempotencyKey]),
      [
        ['hold', 'failed', paymentKeys.hold(order)],
        ['hold_release', 'succeeded', paymentKeys.holdRelease(order)],
      ]
    )
    assert.equal(rows[0].errorCode, 'order_closed')
    const cancelCalls = await db
      .from('sandbox_requests')
      .where('idempotency_key', paymentKeys.holdRelease(order))
    assert.lengthOf(cancelCalls, 1)
    assert.equal(cancelCalls[0].operation, 'cancel')

    // The customer comes back to confirm: a clear 409, both calls; the bank's page changes nothing.
    for (const call of ['authenticate', 'confirm']) {
      const refused = await client
        .post(`/api/user/orders/${order.publicId}/hold/${call}`)
        .bearerToken(token)
      refused.assertStatus(409)
      refused.assertBodyContains({ success: false, code: 'order_closed' })
      assert.include(refused.body().error, 'cancelled')
    }
    await answerChallenge(client, link, 'complete')
    const after = await intentOf(paymentId)
    assert.equal(after.status, 'canceled')
    await placeHolds()
    await order.refresh()
    assert.equal(order.holdStatus, 'released')
    assert.lengthOf(
      await EmailMessage.query().where('order_id', order.id).where('template', 'hold_declined'),
      0
    )
  })

  test('an order marked failed on release day takes its waiting card check with it', async ({
    client,
    assert,
  }) => {
    const { order, token, product } = await waitingHold()
    await product.merge({ releaseAt: DateTime.now().minus({ minutes: 1 }) }).save()
    const admin = await adminWithToken()
    const marked = await client
      .post(`/api/admin/orders/${order.publicId}/mark`)
      .bearerToken(admin.token)
      .json({ status: 'fail', reason: 'Sold out before checkout.' })
    marked.assertStatus(200)
    await order.refresh()
    assert.equal(order.status, 'fail')
    assert.equal(order.holdStatus, 'released')
    const intent = await intentOf(order.holdPaymentId!)
    assert.equal(intent.status, 'canceled')

    const refused = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    refused.assertStatus(409)
    refused.assertBodyContains({ code: 'order_closed' })
    assert.include(refused.body().error, 'ended')
  })

  test('cancelled while the bank was being asked: the waiting payment is cancelled, no e-mail asks to confirm', async ({
    assert,
  }) => {
    const { order } = await pendingOrder({ card: TEST_CARDS.needsAuthentication })
    const { orderPaymentState } = await import('#orders/services/order_payment_state')
    const { orderSettlement } = await import('#payments/services/order_settlement')
    const { ledger } = await import('#payments/services/ledger')
    const { keysOf } = await import('#payments/services/payment_service')
    // A worker claimed the hold and wrote its ledger row, then died before the gateway call.
    assert.isTrue(await orderPaymentState.claimHold(order.id, 120))
    await ledger.begin({
      ...keysOf('hold', order, 1),
      kind: 'hold',
      gateway: 'sandbox',
      orderId: order.id,
      userId: order.userId,
      amountCents: order.holdAmountCents,
    })
    await db
      .from('orders')
      .where('id', order.id)
      .update({ hold_claimed_at: sqlTime(DateTime.now().minus({ minutes: 10 })) })
    // Meanwhile the order is cancelled; then the claim is taken over and the call made.
    await orderSettlement.cancel(order.id, { reason: 'Cancelled by the customer.' })
    await placeHolds()

    await order.refresh()
    assert.equal(order.status, 'cancelled')
    assert.equal(order.holdStatus, 'released')
    assert.match(order.holdPaymentId!, /^pi_sbx_/)
    const intent = await intentOf(order.holdPaymentId!)
    assert.equal(intent.status, 'canceled')
    assert.lengthOf(
      await EmailMessage.query()
        .where('order_id', order.id)
        .where('template', 'hold_needs_confirmation'),
      0
    )
  })
})

test.group('3-D Secure: the sandbox challenge page is only its customer’s', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('another customer, a visitor or an old link gets a 403 and changes nothing', async ({
    client,
    assert,
  }) => {
    const owner = await customerWithToken()
    const started = await startSaving(client, owner.token, TEST_CARDS.authenticateOnSetup)
    const { setupId, challengeUrl } = started.body().authentication
    const other = await customerWithToken()
    const theirs = await startSaving(client, other.token, TEST_CARDS.authenticateOnSetup)
    const theirPass = new URL(
      theirs.body().authentication.challengeUrl,
      'http://x'
    ).searchParams.get('t')
    const ownPass = new URL(challengeUrl, 'http://x').searchParams.get('t')!

    const attempts = [
      ['a visitor without a pass', `/sandbox/3ds/${setupId}`],
      ['another customer’s pass', `/sandbox/3ds/${setupId}?t=${theirPass}`],
      [
        'a forged pass',
        `/sandbox/3ds/${setupId}?t=${ownPass.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`,
      ],
      ['a malformed pass', `/sandbox/3ds/${setupId}?t=nope`],
    ] as const
    for (const [who, url] of attempts) {
      const shown = await client.get(url)
      shown.assertStatus(403)
      assert.notInclude(shown.text(), 'Complete authentication', who)
      assert.notInclude(shown.text(), '3155', who)
      const answered = await answerChallenge(client, url, 'complete', '/account')
      answered.assertStatus(403)
    }
    const setup = await db.from('sandbox_setup_intents').where('id', setupId).first()
    assert.equal(setup.status, 'requires_action')
    assert.lengthOf(
      await db.from('sandbox_payment_methods').where('customer_id', setup.customer_id),
      0
    )

    // 30 minutes later the customer's own link has lapsed: a fresh one comes with confirmCard.
    clock.travel(31 * 60 * 1000)
    const lapsed = await client.get(challengeUrl)
    lapsed.assertStatus(403)
    const again = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(owner.token)
      .json({ setupId })
    again.assertStatus(202)
    const fresh = again.body().authentication.challengeUrl
    assert.notEqual(fresh, challengeUrl)
    const page = await client.get(fresh)
    page.assertStatus(200)
    assert.include(page.text(), 'Complete authentication')
    const answered = await answerChallenge(client, fresh, 'complete')
    answered.assertStatus(200)
    const done = await client
      .post('/api/user/billing/confirmCard')
      .bearerToken(owner.token)
      .json({ setupId })
    done.assertStatus(200)
  })

  test('a waiting card check’s page: only with the pass its customer was handed', async ({
    client,
    assert,
  }) => {
    const { order, token } = await pendingOrder({ card: TEST_CARDS.needsAuthentication })
    await placeHolds()
    await order.refresh()
    const other = await pendingOrder({ card: TEST_CARDS.needsAuthentication })
    await placeHolds()
    const otherAsk = await client
      .post(`/api/user/orders/${other.order.publicId}/hold/authenticate`)
      .bearerToken(other.token)
    const otherPass = new URL(
      otherAsk.body().authentication.challengeUrl,
      'http://x'
    ).searchParams.get('t')

    const stolen = `/sandbox/3ds/${order.holdPaymentId}?t=${otherPass}`
    const shown = await client.get(stolen)
    shown.assertStatus(403)
    const answered = await answerChallenge(client, stolen, 'complete')
    answered.assertStatus(403)
    const bare = await client.get(`/sandbox/3ds/${order.holdPaymentId}`)
    bare.assertStatus(403)
    const intent = await db
      .from('sandbox_payment_intents')
      .where('id', order.holdPaymentId!)
      .first()
    assert.equal(intent.status, 'requires_payment_method')

    const asked = await client
      .post(`/api/user/orders/${order.publicId}/hold/authenticate`)
      .bearerToken(token)
    const own = asked.body().authentication.challengeUrl
    const page = await client.get(own)
    page.assertStatus(200)
    const done = await answerChallenge(client, own, 'complete')
    done.assertStatus(200)
    const placed = await client
      .post(`/api/user/orders/${order.publicId}/hold/confirm`)
      .bearerToken(token)
    placed.assertStatus(200)
  })
})
