import Stripe from 'stripe'
import {
  CardDeclinedError,
  GatewayRequestError,
  GatewayUnavailableError,
  gatewayStepKey,
  type CardInput,
  type CardSetupAction,
  type CardToken,
  type GatewayEvent,
  type GatewayMoney,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentAction,
  type PaymentGateway,
  type PaymentRef,
  type SavedCard,
} from '#payments/gateways/payment_gateway'
import { verifyStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { countRateLimited } from '#payments/gateways/rate_limit_signal'
import {
  captureBeforeOf,
  gatewayPaymentOf,
  gatewayRefundOf,
  moneyOf,
  normalizeBrand,
  paymentActionOf,
  settledRef,
  setupActionOf,
} from '#payments/gateways/stripe_objects'

export type StripeGatewayOptions = {
  secretKey: string
  webhookSecret: string
  webhookToleranceSeconds: number
  currency: string
  host?: string
  port?: number
  protocol?: 'http' | 'https'
  maxNetworkRetries: number
  timeoutMs: number
}

/**
 * The official SDK behind our interface: Customer + PaymentMethod saved by a SetupIntent; the $1.00 hold is a
 * PaymentIntent with `capture_method: 'manual'` that we cancel; the fee is an off-session
 * PaymentIntent confirmed at once; refunds refund the fee's PaymentIntent. Every mutating call
 * carries our idempotency key, so the SDK's own network retries and ours are the same request.
 */
export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe' as const
  readonly client: Stripe

  constructor(private options: StripeGatewayOptions) {
    this.client = new Stripe(options.secretKey || 'sk_test_missing', {
      maxNetworkRetries: options.maxNetworkRetries,
      timeout: options.timeoutMs,
      telemetry: false,
      appInfo: { name: 'dropslot' },
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
    })
  }

  async createCardToken(card: CardInput): Promise<CardToken> {
    const token = await this.call(() =>
      this.client.tokens.create({
        card: {
          number: card.number,
          exp_month: String(card.expMonth),
          exp_year: String(card.expYear),
          cvc: card.cvc,
          ...(card.name ? { name: card.name } : {}),
          ...(card.addressZip ? { address_zip: card.addressZip } : {}),
        },
      })
    )
    return {
      id: token.id,
      brand: normalizeBrand(token.card?.brand),
      last4: token.card?.last4 ?? '',
      expMonth: token.card?.exp_month ?? card.expMonth,
      expYear: token.card?.exp_year ?? card.expYear,
    }
  }

  /**
   * Saves the card with a SetupIntent for off-session use (`usage: 'off_session'`), so the bank
   * can ask for 3-D Secure once now instead of declining later payments. `requires_action`
   * answers the client secret: Stripe.js (`handleNextAction`) takes the customer through the
   * challenge, then `confirmCardSetup` reads the outcome.
   */
  async saveCard(input: {
    customerId: string | null
    email: string
    name: string
    reference: string
    token: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction> {
    let customerId = input.customerId
    if (!customerId) {
      const customer = await this.call(() =>
        this.client.customers.create(
          { email: input.email, name: input.name, metadata: { dropslot_user: input.reference } },
          { idempotencyKey: gatewayStepKey(input.idempotencyKey, 'customer') }
        )
      )
      customerId = customer.id
    }
    const method = await this.call(() =>
      this.client.paymentMethods.create(
        { type: 'card', card: { token: input.token } },
        { idempotencyKey: gatewayStepKey(input.idempotencyKey, 'payment-method') }
      )
    )
    // Confirming the setup runs the card check: a card that will not work is refused here.
    const setup = await this.call(() =>
      this.client.setupIntents.create(
        {
          customer: customerId!,
          payment_method: method.id,
          usage: 'off_session',
          confirm: true,
          use_stripe_sdk: true,
          metadata: { dropslot_user: input.reference },
          expand: ['payment_method'],
        },
        { idempotencyKey: gatewayStepKey(input.idempotencyKey, 'setup') }
      )
    )
    return this.setupOutcome(setup, customerId, gatewayStepKey(input.idempotencyKey, 'default'))
  }

  async confirmCardSetup(input: {
    setupId: string
    customerId: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction> {
    const setup = await this.call(() =>
      this.client.setupIntents.retrieve(input.setupId, { expand: ['payment_method'] })
    )
    const owner = typeof setup.customer === 'string' ? setup.customer : setup.customer?.id
    if (owner !== input.customerId) {
      throw new GatewayRequestError('resource_missing', 'No such setup_intent.')
    }
    return this.setupOutcome(
      setup,
      input.customerId,
      gatewayStepKey(input.idempotencyKey, 'default')
    )
  }

  /** A saved card (made the customer's default), the action still to take, or the refusal. */
  private async setupOutcome(
    setup: Stripe.SetupIntent,
    customerId: string,
    defaultKey: string
  ): Promise<SavedCard | CardSetupAction> {
    const action = setupActionOf(setup, customerId)
    if (action) return action
    if (setup.status !== 'succeeded') {
      const lastError = setup.last_setup_error
      throw new CardDeclinedError(
        lastError?.code ?? 'setup_intent_authentication_failure',
        lastError?.decline_code ?? null,
        lastError?.message ?? 'The card was not set up.'
      )
    }
    const method = setup.payment_method
    const methodId = typeof method === 'string' ? method : (method?.id ?? '')
    const expanded =
      method && typeof method === 'object'
        ? method
        : await this.call(() => this.client.paymentMethods.retrieve(methodId))
    const card = expanded.card
    await this.call(() =>
      this.client.customers.update(
        customerId,
        { invoice_settings: { default_payment_method: methodId } },
        { idempotencyKey: defaultKey }
      )
    )
    return {
      customerId,
      paymentMethodId: methodId,
      brand: normalizeBrand(card?.brand),
      last4: card?.last4 ?? '',
      expMonth: card?.exp_month ?? 0,
      expYear: card?.exp_year ?? 0,
      fingerprint: card?.fingerprint ?? null,
    }
  }

  async cardFingerprint(input: {
    customerId: string
    paymentMethodId: string
  }): Promise<string | null> {
    const method = await this.call(() => this.client.paymentMethods.retrieve(input.paymentMethodId))
    const owner = typeof method.customer === 'string' ? method.customer : method.customer?.id
    if (owner !== input.customerId) {
      throw new GatewayRequestError('resource_missing', 'No such PaymentMethod for this customer.')
    }
    return method.card?.fingerprint ?? null
  }

  async deleteCustomer(input: { customerId: string; idempotencyKey: string }): Promise<void> {
    try {
      // A DELETE needs no idempotency key at Stripe: deleting twice is answered resource_missing.
      await this.call(() => this.client.customers.del(input.customerId))
    } catch (error) {
      if (error instanceof GatewayRequestError && error.code === 'resource_missing') return
      throw error
    }
  }

  async placeHold(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef> {
    const intent = await this.call(() =>
      this.client.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: this.options.currency,
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          capture_method: 'manual',
          confirm: true,
          off_session: true,
          description: 'Dropslot card check (released, never captured)',
          metadata: input.metadata,
          // The card actually checked (its fingerprint comes back with the payment) and the
          // charge, which tells when the authorization lapses (capture_before).
          expand: ['payment_method', 'latest_charge'],
        },
        { idempotencyKey: input.idempotencyKey }
      )
    )
    const method = intent.payment_method
    const cardFingerprint =
      method && typeof method === 'object' ? (method.card?.fingerprint ?? null) : null
    const ref = { ...settledRef(intent, 'requires_capture'), cardFingerprint }
    const captureBefore = captureBeforeOf(intent)
    return captureBefore ? { ...ref, captureBefore } : ref
  }

  async releaseHold(input: { paymentId: string; idempotencyKey: string }): Promise<PaymentRef> {
    try {
      const intent = await this.call(() =>
        this.client.paymentIntents.cancel(
          input.paymentId,
          { cancellation_reason: 'abandoned' },
          { idempotencyKey: input.idempotencyKey }
        )
      )
      return { id: intent.id, status: intent.status }
    } catch (error) {
      // Already cancelled (by us earlier, or expired after 7 days): the hold is gone either way.
      if (
        error instanceof GatewayRequestError &&
        error.code === 'payment_intent_unexpected_state'
      ) {
        const intent = await this.call(() => this.client.paymentIntents.retrieve(input.paymentId))
        if (intent.status === 'canceled') return { id: intent.id, status: intent.status }
      }
      throw error
    }
  }

  async chargeFee(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    description: string
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef> {
    const intent = await this.call(() =>
      this.client.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: this.options.currency,
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          description: input.description,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey }
      )
    )
    return settledRef(intent, 'succeeded')
  }

  async refund(input: {
    paymentId: string
    amountCents?: number
    idempotencyKey: string
  }): Promise<PaymentRef> {
    const refund = await this.call(() =>
      this.client.refunds.create(
        {
          payment_intent: input.paymentId,
          ...(input.amountCents !== undefined ? { amount: input.amountCents } : {}),
        },
        { idempotencyKey: input.idempotencyKey }
      )
    )
    if (refund.status === 'failed' || refund.status === 'canceled') {
      throw new GatewayRequestError('refund_failed', `The refund ${refund.status}.`)
    }
    return { id: refund.id, status: refund.status ?? 'pending' }
  }

  async retrievePayment(id: string): Promise<GatewayPayment | null> {
    const intent = await this.retrieveOrNull(() =>
      this.client.paymentIntents.retrieve(id, { expand: ['latest_charge'] })
    )
    return intent ? gatewayPaymentOf(intent) : null
  }

  /** What the customer needs to authenticate a hold the bank declined off-session. */
  async paymentAction(paymentId: string): Promise<PaymentAction | null> {
    const intent = await this.retrieveOrNull(() => this.client.paymentIntents.retrieve(paymentId))
    return intent ? paymentActionOf(intent) : null
  }

  async retrieveRefund(id: string): Promise<GatewayRefund | null> {
    const refund = await this.retrieveOrNull(() => this.client.refunds.retrieve(id))
    return refund ? gatewayRefundOf(refund) : null
  }

  /**
   * Stripe's balance transactions since a time (every page, with their source expanded), as
   * charges and refunds. Fees Stripe takes are not ours to reconcile: the amounts are the gross
   * ones our ledger records.
   */
  async moneyMoved(since: Date): Promise<GatewayMoney[]> {
    const moved: GatewayMoney[] = []
    const list = this.client.balanceTransactions.list({
      created: { gte: Math.floor(since.getTime() / 1000) },
      limit: 100,
      expand: ['data.source'],
    })
    try {
      for await (const transaction of list) {
        const money = moneyOf(transaction)
        if (money) moved.push(money)
      }
    } catch (error) {
      throw this.mapped(error)
    }
    return moved
  }

  parseWebhook(rawBody: string, signature: string | undefined): GatewayEvent {
    return verifyStripeStyleWebhook(
      rawBody,
      signature,
      this.options.webhookSecret,
      this.options.webhookToleranceSeconds
    )
  }

  /** A read that answers null for an object the provider does not know (ours or not at all). */
  private async retrieveOrNull<T>(request: () => Promise<T>): Promise<T | null> {
    try {
      return await this.call(request)
    } catch (error) {
      if (error instanceof GatewayRequestError && error.code === 'resource_missing') return null
      throw error
    }
  }

  /** Maps the SDK's errors to ours: declines, retryable outages, and refused requests. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request()
    } catch (error) {
      throw this.mapped(error)
    }
  }

  /** Our error for the SDK's; a 429 is counted for the alerts. */
  private mapped(error: unknown): Error {
    const mapped = mapStripeError(error)
    if (mapped instanceof GatewayUnavailableError && mapped.code === 'rate_limited') {
      countRateLimited('stripe')
    }
    return mapped
  }
}

export function mapStripeError(error: unknown): Error {
  const errors = Stripe.errors
  if (error instanceof errors.StripeCardError) {
    return new CardDeclinedError(
      error.code ?? 'card_declined',
      error.decline_code ?? null,
      error.message || 'Your card was declined.',
      error.payment_intent?.id ?? null
    )
  }
  if (error instanceof errors.StripeRateLimitError) {
    return new GatewayUnavailableError('rate_limited', error.message)
  }
  if (error instanceof errors.StripeConnectionError) {
    return new GatewayUnavailableError('connection_error', error.message)
  }
  if (error instanceof errors.StripeAPIError) {
    return new GatewayUnavailableError('api_error', error.message)
  }
  if (error instanceof errors.StripeIdempotencyError) {
    return new GatewayRequestError('idempotency_error', error.message)
  }
  if (error instanceof errors.StripeInvalidRequestError) {
    // A payment that needs the customer's authentication comes back as a 402 card_error, but
    // some API versions report it on the PaymentIntent's error instead.
    if (error.code === 'authentication_required') {
      return new CardDeclinedError(
        'authentication_required',
        'authentication_required',
        error.message
      )
    }
    if (error.code === 'lock_timeout')
      return new GatewayUnavailableError('lock_timeout', error.message)
    return new GatewayRequestError(error.code ?? 'invalid_request', error.message)
  }
  if (
    error instanceof errors.StripeAuthenticationError ||
    error instanceof errors.StripePermissionError
  ) {
    return new GatewayRequestError(
      'gateway_misconfigured',
      'The payment provider refused our credentials.'
    )
  }
  if (error instanceof errors.StripeError) {
    const status = error.statusCode ?? 500
    return status >= 500
      ? new GatewayUnavailableError('api_error', error.message)
      : new GatewayRequestError(error.code ?? 'invalid_request', error.message)
  }
  return error instanceof Error ? error : new Error(String(error))
}
