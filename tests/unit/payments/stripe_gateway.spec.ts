import { test } from '@japa/runner'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  CardDeclinedError,
  GatewayRequestError,
  GatewayUnavailableError,
  WebhookSignatureError,
} from '#payments/gateways/payment_gateway'
import { StripeGateway } from '#payments/gateways/stripe_gateway'
import { signStripeStyleWebhook } from '#payments/gateways/webhook_signature'

/*
| The Stripe gateway, offline: a local HTTP server plays Stripe's API (stripe-node takes host,
| port and protocol) and records what the SDK sends, so we can assert paths, parameters,
| amounts and idempotency keys, and answer with Stripe's own error shapes.
*/
type Recorded = {
  method: string
  path: string
  body: Record<string, string>
  idempotencyKey: string | undefined
  authorization: string | undefined
}
type Reply = { status?: number; body: unknown; headers?: Record<string, string> }
type Handler = (request: Recorded) => Reply

class FakeStripe {
  requests: Recorded[] = []
  private replies: Handler[] = []
  private server: Server | null = null
  port = 0

  /** Queue the answers for the next requests, in order. */
  reply(...handlers: (Reply | Handler)[]) {
    this.replies.push(...handlers.map((item) => (typeof item === 'function' ? item : () => item)))
  }

  async start() {
    this.server = createServer(async (request, response) => {
      const recorded = await this.record(request)
      this.requests.push(recorded)
      const handler = this.replies.shift()
      const reply = handler
        ? handler(recorded)
        : { status: 500, body: { error: { type: 'api_error', message: 'no reply queued' } } }
      response.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        'request-id': `req_${this.requests.length}`,
        ...reply.headers,
      })
      response.end(JSON.stringify(reply.body))
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.port = (this.server!.address() as AddressInfo).port
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  gateway(options: { maxNetworkRetries?: number } = {}) {
    return new StripeGateway({
      secretKey: 'sk_test_offline',
      webhookSecret: 'whsec_offline',
      webhookToleranceSeconds: 300,
      currency: 'usd',
      host: '127.0.0.1',
      port: this.port,
      protocol: 'http',
      maxNetworkRetries: options.maxNetworkRetries ?? 0,
      timeoutMs: 5000,
    })
  }

  private async record(request: IncomingMessage): Promise<Recorded> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const url = new URL(request.url ?? '/', 'http://localhost')
    const raw = request.method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString()
    return {
      method: request.method ?? '',
      path: url.pathname,
      body: Object.fromEntries(new URLSearchParams(raw)),
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      authorization: request.headers.authorization,
    }
  }
}

const intent = (overrides: Record<string, unknown> = {}) => ({
  id: 'pi_123',
  object: 'payment_intent',
  status: 'requires_capture',
  amount: 100,
  currency: 'usd',
  ...overrides,
})

const card = {
  brand: 'visa',
  last4: '4242',
  exp_month: 12,
  exp_year: 2031,
  fingerprint: 'Xt5EWLLDS7FJjR1c',
}

const setupIntent = (overrides: Record<string, unknown> = {}) => ({
  id: 'seti_1',
  object: 'setup_intent',
  customer: 'cus_9',
  client_secret: 'seti_1_secret_abc',
  usage: 'off_session',
  ...overrides,
})

const cardError = (code: string, declineCode?: string) => ({
  status: 402,
  body: {
    error: {
      type: 'card_error',
      code,
      ...(declineCode ? { decline_code: declineCode } : {}),
      message: 'Your card was declined.',
    },
  },
})

test.group('Stripe gateway (offline, against a local stand-in of the API)', (group) => {
  const stripe = new FakeStripe()
  group.setup(async () => {
    await stripe.start()
    return () => stripe.stop()
  })
  group.each.setup(() => {
    stripe.requests = []
  })

  test('saveCard creates the customer and the payment method, sets it up off-session and makes it default', async ({
    assert,
  }) => {
    stripe.reply(
      { body: { id: 'cus_1', object: 'customer' } },
      { body: { id: 'pm_1', object: 'payment_method', card } },
      {
        body: setupIntent({
          status: 'succeeded',
          payment_method: { id: 'pm_1', object: 'payment_method', customer: 'cus_1', card },
        }),
      },
      { body: { id: 'cus_1', object: 'customer' } }
    )
    const saved = await stripe.gateway().saveCard({
      customerId: null,
      email: 'buyer@example.test',
      name: 'Buyer One',
      reference: 'user-uuid-1',
      token: 'tok_visa',
      idempotencyKey: 'user:uuid-1:card:tok_visa',
    })
    assert.deepEqual(saved, {
      customerId: 'cus_1',
      paymentMethodId: 'pm_1',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2031,
      // Stripe's own identifier of the card number: what one entry per card goes by.
      fingerprint: 'Xt5EWLLDS7FJjR1c',
    })
    assert.deepEqual(
      stripe.requests.map((request) => [request.method, request.path, request.idempotencyKey]),
      [
        ['POST', '/v1/customers', 'user:uuid-1:card:tok_visa:customer'],
        ['POST', '/v1/payment_methods', 'user:uuid-1:card:tok_visa:payment-method'],
        ['POST', '/v1/setup_intents', 'user:uuid-1:card:tok_visa:setup'],
        ['POST', '/v1/customers/cus_1', 'user:uuid-1:card:tok_visa:default'],
      ]
    )
    assert.deepInclude(stripe.requests[0].body, {
      'email': 'buyer@example.test',
      'name': 'Buyer One',
      'metadata[dropslot_user]': 'user-uuid-1',
    })
    assert.deepEqual(stripe.requests[1].body, { 'type': 'card', 'card[token]': 'tok_visa' })
    assert.deepInclude(stripe.requests[2].body, {
      customer: 'cus_1',
      payment_method: 'pm_1',
      usage: 'off_session',
      confirm: 'true',
      use_stripe_sdk: 'true',
    })
    assert.deepEqual(stripe.requests[3].body, {
      'invoice_settings[default_payment_method]': 'pm_1',
    })
    assert.equal(stripe.requests[0].authorization, 'Bearer sk_test_offline')
  })

  test('saveCard on an existing customer only adds the card', async ({ assert }) => {
    stripe.reply(
      { body: { id: 'pm_2', object: 'payment_method', card } },
      { body: setupIntent({ status: 'succeeded', customer: 'cus_9', payment_method: 'pm_2' }) },
      { body: { id: 'pm_2', object: 'payment_method', customer: 'cus_9', card } },
      { body: { id: 'cus_9', object: 'customer' } }
    )
    const saved = await stripe.gateway().saveCard({
      customerId: 'cus_9',
      email: 'a@example.test',
      name: 'A',
      reference: 'u',
      token: 'tok_2',
      idempotencyKey: 'user:u:card:tok_2',
    })
    assert.deepEqual(
      stripe.requests.map((request) => request.path),
      [
        '/v1/payment_methods',
        '/v1/setup_intents',
        '/v1/payment_methods/pm_2',
        '/v1/customers/cus_9',
      ]
    )
    assert.include(saved, { paymentMethodId: 'pm_2', last4: '4242' })
  })

  test('a card that needs 3-D Secure answers the client secret; the card is saved once authenticated', async ({
    assert,
  }) => {
    stripe.reply(
      { body: { id: 'pm_3', object: 'payment_method', card } },
      {
        body: setupIntent({
          status: 'requires_action',
          payment_method: 'pm_3',
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} },
        }),
      }
    )
    const gateway = stripe.gateway()
    const action = await gateway.saveCard({
      customerId: 'cus_9',
      email: 'a@example.test',
      name: 'A',
      reference: 'u',
      token: 'tok_3',
      idempotencyKey: 'user:u:card:tok_3',
    })
    assert.deepEqual(action, {
      status: 'requires_action',
      setupId: 'seti_1',
      customerId: 'cus_9',
      clientSecret: 'seti_1_secret_abc',
      challengeUrl: null,
    })
    // No default card is set while the bank waits for the customer.
    assert.lengthOf(stripe.requests, 2)

    stripe.requests = []
    stripe.reply({
      body: setupIntent({
        status: 'succeeded',
        payment_method: { id: 'pm_3', object: 'payment_method', customer: 'cus_9', card },
      }),
    })
    stripe.reply({ body: { id: 'cus_9', object: 'customer' } })
    const saved = await gateway.confirmCardSetup({
      setupId: 'seti_1',
      customerId: 'cus_9',
      idempotencyKey: 'user:u:card-setup:seti_1',
    })
    assert.include(saved, { paymentMethodId: 'pm_3', customerId: 'cus_9' })
    assert.deepEqual(
      stripe.requests.map((request) => [request.method, request.path, request.idempotencyKey]),
      [
        ['GET', '/v1/setup_intents/seti_1', undefined],
        ['POST', '/v1/customers/cus_9', 'user:u:card-setup:seti_1:default'],
      ]
    )
  })

  test('a failed authentication is a decline; another customer’s setup is unknown', async ({
    assert,
  }) => {
    const gateway = stripe.gateway()
    stripe.reply({
      body: setupIntent({
        status: 'requires_payment_method',
        last_setup_error: {
          type: 'card_error',
          code: 'setup_intent_authentication_failure',
          message: 'We are unable to authenticate your payment method.',
        },
      }),
    })
    const failed = await gateway
      .confirmCardSetup({ setupId: 'seti_1', customerId: 'cus_9', idempotencyKey: 'k' })
      .catch((error) => error)
    assert.instanceOf(failed, CardDeclinedError)
    assert.isTrue((failed as CardDeclinedError).authenticationFailed)

    stripe.reply({ body: setupIntent({ status: 'succeeded', customer: 'cus_other' }) })
    const foreign = await gateway
      .confirmCardSetup({ setupId: 'seti_1', customerId: 'cus_9', idempotencyKey: 'k' })
      .catch((error) => error)
    assert.instanceOf(foreign, GatewayRequestError)
    assert.equal((foreign as GatewayRequestError).code, 'resource_missing')
  })

  test('the hold is a manual-capture PaymentIntent for 100 cents, confirmed off-session', async ({
    assert,
  }) => {
    stripe.reply({
      body: intent({ payment_method: { id: 'pm_1', object: 'payment_method', card } }),
    })
    const placed = await stripe.gateway().placeHold({
      customerId: 'cus_1',
      paymentMethodId: 'pm_1',
      amountCents: 100,
      metadata: { order_id: 'order-uuid', purpose: 'hold' },
      idempotencyKey: 'order:7:hold',
    })
    // The card actually checked comes back with the payment (expanded payment method).
    assert.deepEqual(placed, {
      id: 'pi_123',
      status: 'requires_capture',
      cardFingerprint: 'Xt5EWLLDS7FJjR1c',
    })
    const [request] = stripe.requests
    assert.equal(request.path, '/v1/payment_intents')
    assert.equal(request.idempotencyKey, 'order:7:hold')
    assert.deepInclude(request.body, {
      'amount': '100',
      'currency': 'usd',
      'customer': 'cus_1',
      'payment_method': 'pm_1',
      'capture_method': 'manual',
      'confirm': 'true',
      'off_session': 'true',
      'metadata[order_id]': 'order-uuid',
      'metadata[purpose]': 'hold',
      'expand[0]': 'payment_method',
    })
  })

  test('the hold says when its authorization lapses: the charge’s capture_before, created or read back', async ({
    assert,
  }) => {
    const lapses = Math.floor(Date.UTC(2031, 0, 8, 12, 0, 0) / 1000)
    const charge = {
      id: 'ch_1',
      object: 'charge',
      amount_refunded: 0,
      payment_method_details: { type: 'card', card: { brand: 'visa', capture_before: lapses } },
    }
    stripe.reply({ body: intent({ latest_charge: charge }) })
    const placed = await stripe.gateway().placeHold({
      customerId: 'cus_1',
      paymentMethodId: 'pm_1',
      amountCents: 100,
      metadata: { order_id: 'order-uuid', purpose: 'hold' },
      idempotencyKey: 'k-hold',
    })
    assert.deepEqual(placed, {
      id: 'pi_123',
      status: 'requires_capture',
      cardFingerprint: null,
      captureBefore: '2031-01-08T12:00:00.000Z',
    })
    // The card checked (its fingerprint) and the charge (when the authorization lapses).
    assert.equal(stripe.requests[0].body['expand[0]'], 'payment_method')
    assert.equal(stripe.requests[0].body['expand[1]'], 'latest_charge')

    stripe.reply({ body: intent({ latest_charge: charge, capture_method: 'manual' }) })
    const payment = await stripe.gateway().retrievePayment('pi_123')
    assert.equal(payment!.captureBefore, '2031-01-08T12:00:00.000Z')

    // A charge that was not expanded says nothing: the caller reads the payment back.
    stripe.reply({ body: intent({ latest_charge: 'ch_1' }) })
    const bare = await stripe.gateway().placeHold({
      customerId: 'cus_1',
      paymentMethodId: 'pm_1',
      amountCents: 100,
      metadata: { order_id: 'order-uuid', purpose: 'hold' },
      idempotencyKey: 'k-hold-2',
    })
    assert.deepEqual(bare, { id: 'pi_123', status: 'requires_capture', cardFingerprint: null })
  })

  test('the hold is released by cancelling it; an already cancelled hold counts as released', async ({
    assert,
  }) => {
    stripe.reply({ body: intent({ status: 'canceled' }) })
    const released = await stripe
      .gateway()
      .releaseHold({ paymentId: 'pi_123', idempotencyKey: 'order:7:hold-release' })
    assert.deepEqual(released, { id: 'pi_123', status: 'canceled' })
    assert.equal(stripe.requests[0].path, '/v1/payment_intents/pi_123/cancel')
    assert.equal(stripe.requests[0].idempotencyKey, 'order:7:hold-release')
    assert.deepEqual(stripe.requests[0].body, { cancellation_reason: 'abandoned' })

    stripe.requests = []
    stripe.reply(
      {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: 'You cannot cancel this PaymentIntent because it has a status of canceled.',
          },
        },
      },
      { body: intent({ status: 'canceled' }) }
    )
    const again = await stripe
      .gateway()
      .releaseHold({ paymentId: 'pi_123', idempotencyKey: 'order:7:hold-release' })
    assert.equal(again.status, 'canceled')
    assert.deepEqual(
      stripe.requests.map((request) => [request.method, request.path]),
      [
        ['POST', '/v1/payment_intents/pi_123/cancel'],
        ['GET', '/v1/payment_intents/pi_123'],
      ]
    )
  })

  test('the fee is an off-session PaymentIntent for the order price, captured at once', async ({
    assert,
  }) => {
    stripe.reply({ body: intent({ id: 'pi_fee', status: 'succeeded', amount: 4050 }) })
    const charged = await stripe.gateway().chargeFee({
      customerId: 'cus_1',
      paymentMethodId: 'pm_1',
      amountCents: 4050,
      description: 'Dropslot service fee: Air Max',
      metadata: { order_id: 'order-uuid', purpose: 'fee' },
      idempotencyKey: 'order:7:fee',
    })
    assert.deepEqual(charged, { id: 'pi_fee', status: 'succeeded' })
    const [request] = stripe.requests
    assert.equal(request.idempotencyKey, 'order:7:fee')
    assert.deepInclude(request.body, {
      'amount': '4050',
      'off_session': 'true',
      'confirm': 'true',
      'metadata[purpose]': 'fee',
    })
    assert.notProperty(request.body, 'capture_method')
  })

  test('refunds refund the fee PaymentIntent with our key', async ({ assert }) => {
    stripe.reply({ body: { id: 're_1', object: 'refund', status: 'succeeded', amount: 4050 } })
    const refund = await stripe
      .gateway()
      .refund({ paymentId: 'pi_fee', amountCents: 4050, idempotencyKey: 'order:7:refund' })
    assert.deepEqual(refund, { id: 're_1', status: 'succeeded' })
    assert.equal(stripe.requests[0].path, '/v1/refunds')
    assert.equal(stripe.requests[0].idempotencyKey, 'order:7:refund')
    assert.deepEqual(stripe.requests[0].body, { payment_intent: 'pi_fee', amount: '4050' })
  })

  test('card tokens are created from the card form fields', async ({ assert }) => {
    stripe.reply({ body: { id: 'tok_1', object: 'token', card } })
    const token = await stripe.gateway().createCardToken({
      name: 'Buyer One',
      number: '4242424242424242',
      expMonth: 12,
      expYear: 2031,
      cvc: '123',
      addressZip: '10013',
    })
    assert.deepEqual(token, {
      id: 'tok_1',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2031,
    })
    assert.equal(stripe.requests[0].path, '/v1/tokens')
    assert.deepInclude(stripe.requests[0].body, {
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': '2031',
      'card[cvc]': '123',
      'card[name]': 'Buyer One',
      'card[address_zip]': '10013',
    })
  })

  test("maps Stripe's errors to declines, outages and refused requests", async ({ assert }) => {
    const gateway = stripe.gateway()
    const hold = () =>
      gateway.placeHold({
        customerId: 'cus_1',
        paymentMethodId: 'pm_1',
        amountCents: 100,
        metadata: {},
        idempotencyKey: 'order:8:hold',
      })
    const failure = async () => {
      try {
        await hold()
      } catch (error) {
        return error
      }
      throw new Error('expected the call to fail')
    }

    stripe.reply(cardError('card_declined', 'insufficient_funds'))
    let error = await failure()
    assert.instanceOf(error, CardDeclinedError)
    assert.include(error as CardDeclinedError, {
      code: 'card_declined',
      declineCode: 'insufficient_funds',
    })

    stripe.reply(cardError('authentication_required', 'authentication_required'))
    error = await failure()
    assert.instanceOf(error, CardDeclinedError)
    assert.isTrue((error as CardDeclinedError).requiresAuthentication)

    stripe.reply({ body: intent({ status: 'requires_action' }) })
    error = await failure()
    assert.instanceOf(error, CardDeclinedError)
    assert.isTrue((error as CardDeclinedError).requiresAuthentication)

    stripe.reply({
      status: 429,
      body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many' } },
    })
    error = await failure()
    assert.instanceOf(error, GatewayUnavailableError)
    assert.equal((error as GatewayUnavailableError).code, 'rate_limited')

    stripe.reply({ status: 500, body: { error: { type: 'api_error', message: 'boom' } } })
    error = await failure()
    assert.instanceOf(error, GatewayUnavailableError)

    stripe.reply({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: 'No such PaymentMethod',
        },
      },
    })
    error = await failure()
    assert.instanceOf(error, GatewayRequestError)
    assert.equal((error as GatewayRequestError).code, 'resource_missing')

    stripe.reply({
      status: 401,
      body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
    })
    error = await failure()
    assert.instanceOf(error, GatewayRequestError)
    assert.equal((error as GatewayRequestError).code, 'gateway_misconfigured')
    assert.notInclude((error as Error).message, 'sk_test_offline')
  })

  test("the SDK's own retry after a 500 repeats the same idempotency key", async ({ assert }) => {
    stripe.reply(
      {
        status: 500,
        body: { error: { type: 'api_error', message: 'try again' } },
        headers: { 'stripe-should-retry': 'true' },
      },
      { body: intent({ id: 'pi_retry' }) }
    )
    const placed = await stripe.gateway({ maxNetworkRetries: 1 }).placeHold({
      customerId: 'cus_1',
      paymentMethodId: 'pm_1',
      amountCents: 100,
      metadata: {},
      idempotencyKey: 'order:9:hold',
    })
    assert.equal(placed.id, 'pi_retry')
    assert.deepEqual(
      stripe.requests.map((request) => request.idempotencyKey),
      ['order:9:hold', 'order:9:hold']
    )
  })

  test('webhooks: a signed event parses; a tampered or stale one is refused', async ({
    assert,
  }) => {
    const gateway = stripe.gateway()
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      created: 1,
      data: { object: intent({ status: 'succeeded' }) },
    })
    const event = gateway.parseWebhook(payload, signStripeStyleWebhook(payload, 'whsec_offline'))
    assert.equal(event.id, 'evt_1')
    assert.equal(event.object.id, 'pi_123')

    assert.throws(
      () =>
        gateway.parseWebhook(
          payload.replace('succeeded', 'canceled'),
          signStripeStyleWebhook(payload, 'whsec_offline')
        ),
      WebhookSignatureError
    )
    const stale = signStripeStyleWebhook(
      payload,
      'whsec_offline',
      Math.floor(Date.now() / 1000) - 3600
    )
    assert.throws(() => gateway.parseWebhook(payload, stale), WebhookSignatureError)
    const future = signStripeStyleWebhook(
      payload,
      'whsec_offline',
      Math.floor(Date.now() / 1000) + 600
    )
    assert.throws(() => gateway.parseWebhook(payload, future), WebhookSignatureError)
  })

  test('a payment is read back with its charge: status, amounts, metadata, last error', async ({
    assert,
  }) => {
    stripe.reply({
      body: intent({
        id: 'pi_fee',
        status: 'requires_payment_method',
        amount: 4050,
        capture_method: 'automatic',
        metadata: { order_id: 'order-uuid', purpose: 'fee' },
        cancellation_reason: null,
        last_payment_error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        },
        latest_charge: { id: 'ch_1', object: 'charge', amount_refunded: 1000 },
      }),
    })
    const payment = await stripe.gateway().retrievePayment('pi_fee')
    assert.deepEqual(payment, {
      id: 'pi_fee',
      status: 'requires_payment_method',
      amountCents: 4050,
      amountRefundedCents: 1000,
      captureMethod: 'automatic',
      metadata: { order_id: 'order-uuid', purpose: 'fee' },
      cancellationReason: null,
      lastError: {
        code: 'card_declined',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
      captureBefore: null,
    })
    const [request] = stripe.requests
    assert.equal(request.method, 'GET')
    assert.equal(request.path, '/v1/payment_intents/pi_fee')
    assert.deepEqual(request.body, { 'expand[0]': 'latest_charge' })
  })

  test('a refund is read back; objects the provider does not know are null', async ({ assert }) => {
    stripe.reply({
      body: {
        id: 're_1',
        object: 'refund',
        status: 'succeeded',
        amount: 700,
        payment_intent: 'pi_fee',
      },
    })
    assert.deepEqual(await stripe.gateway().retrieveRefund('re_1'), {
      id: 're_1',
      status: 'succeeded',
      amountCents: 700,
      paymentId: 'pi_fee',
    })
    assert.equal(stripe.requests[0].path, '/v1/refunds/re_1')

    const missing = {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: 'No such object',
        },
      },
    }
    stripe.reply(missing, missing)
    assert.isNull(await stripe.gateway().retrievePayment('pi_forged'))
    assert.isNull(await stripe.gateway().retrieveRefund('re_forged'))

    // An outage is not "unknown": the webhook is answered 503 and delivered again.
    stripe.reply({ status: 500, body: { error: { type: 'api_error', message: 'boom' } } })
    await assert.rejects(() => stripe.gateway().retrievePayment('pi_fee'), GatewayUnavailableError)
  })

  test('balance transactions: every page, charges and refunds with their payment, for reconciliation', async ({
    assert,
  }) => {
    const charge = (id: string, pi: string, amount: number, orderId: string) => ({
      id: `txn_${id}`,
      object: 'balance_transaction',
      type: 'charge',
      amount,
      created: 1_750_000_000,
      source: {
        id,
        object: 'charge',
        amount,
        payment_intent: pi,
        metadata: { order_id: orderId, purpose: 'fee' },
      },
    })
    stripe.reply(
      {
        body: {
          object: 'list',
          url: '/v1/balance_transactions',
          has_more: true,
          data: [
            charge('ch_1', 'pi_fee_1', 2500, 'order-a'),
            {
              id: 'txn_payout',
              object: 'balance_transaction',
              type: 'payout',
              amount: -9000,
              created: 1_750_000_100,
              source: { id: 'po_1', object: 'payout' },
            },
          ],
        },
      },
      {
        body: {
          object: 'list',
          url: '/v1/balance_transactions',
          has_more: false,
          data: [
            charge('ch_2', 'pi_fee_2', 3000, 'order-b'),
            {
              id: 'txn_re_1',
              object: 'balance_transaction',
              type: 'refund',
              amount: -700,
              created: 1_750_000_200,
              source: { id: 're_1', object: 'refund', amount: 700, payment_intent: 'pi_fee_1' },
            },
          ],
        },
      }
    )
    const since = new Date(1_749_990_000 * 1000)
    const moved = await stripe.gateway().moneyMoved(since)
    assert.deepEqual(
      moved.map((item) => [
        item.type,
        item.id,
        item.paymentId,
        item.amountCents,
        item.orderPublicId,
      ]),
      [
        ['charge', 'ch_1', 'pi_fee_1', 2500, 'order-a'],
        ['charge', 'ch_2', 'pi_fee_2', 3000, 'order-b'],
        ['refund', 're_1', 'pi_fee_1', 700, null],
      ]
    )
    assert.lengthOf(stripe.requests, 2)
    const [first, second] = stripe.requests
    assert.equal(first.method, 'GET')
    assert.equal(first.path, '/v1/balance_transactions')
    assert.equal(first.body['created[gte]'], '1749990000')
    assert.equal(first.body['expand[0]'] ?? first.body['expand[]'], 'data.source')
    assert.equal(second.body.starting_after, 'txn_payout')
  })
})
