/*
| PaymentGateway (docs/decisions.md, "Money"): amounts in cents, our own references, and an
| idempotency key on every call that moves money or creates something, so a retried call is the
| same provider request. Implementations: SandboxGateway (default) and StripeGateway.
*/

/** Card data as the card form sends it; only ever held in memory for one call. */
export type CardInput = {
  name?: string | null
  number: string
  expMonth: number
  expYear: number
  cvc: string
  addressZip?: string | null
}

export type CardSummary = { brand: string; last4: string; expMonth: number; expYear: number }

export type CardToken = CardSummary & { id: string }

/**
 * A card saved at the gateway. `fingerprint` is the gateway's own identifier of the card number
 * (Stripe's `card.fingerprint`): the same card saved twice, by anyone, has the same one.
 */
export type SavedCard = CardSummary & {
  customerId: string
  paymentMethodId: string
  fingerprint: string | null
}

/** A payment made; for a card check, the fingerprint of the card it was made on. */
export type PaymentRef = {
  id: string
  status: string
  cardFingerprint?: string | null
  /**
   * A hold's authorization lapses at this time (ISO 8601; Stripe's
   * `latest_charge.payment_method_details.card.capture_before`), when the answer carried it.
   */
  captureBefore?: string | null
}

/**
 * A card the customer's bank wants to authenticate (3-D Secure) before it is saved for
 * off-session payments. The customer goes through the challenge: Stripe.js with the client
 * secret (Stripe), or the sandbox's own challenge page (`challengeUrl`). Then
 * `confirmCardSetup` saves the card or says it was refused.
 */
export type CardSetupAction = {
  status: 'requires_action'
  setupId: string
  customerId: string
  clientSecret: string | null
  challengeUrl: string | null
}

export function isCardSetupAction(value: SavedCard | CardSetupAction): value is CardSetupAction {
  return 'status' in value && value.status === 'requires_action'
}

/** A provider event, reduced to what moves our state. */
export type GatewayEvent = {
  id: string
  type: string
  created: number
  /** The object of the event (a PaymentIntent, a Charge, a Refund...), as the provider sent it. */
  object: Record<string, any>
}

/** A payment (PaymentIntent) as the gateway reports it now: what a webhook is checked against. */
export type GatewayPayment = {
  id: string
  /** requires_capture | succeeded | canceled | requires_payment_method | processing | ... */
  status: string
  amountCents: number
  /** Refunded so far (0 when nothing was). */
  amountRefundedCents: number
  captureMethod: 'manual' | 'automatic'
  metadata: Record<string, string>
  cancellationReason: string | null
  /** Why the last attempt failed (a declined hold or fee); null otherwise. */
  lastError: { code: string; declineCode: string | null; message: string } | null
  /**
   * An uncaptured authorization (a hold) lapses at this time, ISO 8601 (Stripe's
   * `latest_charge.payment_method_details.card.capture_before`); null when not known.
   */
  captureBefore: string | null
}

export type PaymentAction = {
  paymentId: string
  challengeUrl: string | null
  clientSecret: string | null
  paymentMethodId: string | null
}

/** A refund as the gateway reports it now. */
export type GatewayRefund = { id: string; status: string; amountCents: number; paymentId: string }

/**
 * Money the gateway's own records say moved: a charge captured (a fee; a $1.00 check is never
 * captured) or a refund, in cents, with the payment it belongs to and our order id when the
 * gateway kept it (the payment's metadata). Stripe: its balance transactions.
 */
export type GatewayMoney = {
  type: 'charge' | 'refund'
  /** The charge's or refund's own id (the sandbox's charges are their payment). */
  id: string
  /** The payment (PaymentIntent) the money belongs to. */
  paymentId: string
  amountCents: number
  orderPublicId: string | null
  purpose: string | null
  createdAt: Date
}

export interface PaymentGateway {
  readonly name: 'sandbox' | 'stripe'

  /** genToken: a one-time card token, as the provider's client library would create. */
  createCardToken(card: CardInput): Promise<CardToken>

  /**
   * Creates the customer when needed and saves the card (token) on it as a reusable method for
   * off-session payments; a card whose bank asks for authentication first answers the action.
   */
  saveCard(input: {
    customerId: string | null
    email: string
    name: string
    reference: string
    token: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction>

  /**
   * After the customer's authentication: the saved card, the same action while it is still
   * waiting for the customer, or CardDeclinedError when the bank refused it. A setup of another
   * customer is GatewayRequestError `resource_missing`.
   */
  confirmCardSetup(input: {
    setupId: string
    customerId: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction>

  /**
   * Deletes the customer and its saved cards (account deletion; a one-step checkout refused after
   * its card was saved). Deleting a customer that is already gone is a success.
   */
  deleteCustomer(input: { customerId: string; idempotencyKey: string }): Promise<void>

  /** The gateway's fingerprint of a saved card (reads only). */
  cardFingerprint(input: { customerId: string; paymentMethodId: string }): Promise<string | null>

  /** The card check: an uncaptured authorisation (manual capture) we cancel later. */
  placeHold(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef>

  /** Cancels an uncaptured hold. Releasing one already released is a success. */
  releaseHold(input: { paymentId: string; idempotencyKey: string }): Promise<PaymentRef>

  /** The service fee, charged off-session on the saved card. */
  chargeFee(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    description: string
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef>

  refund(input: {
    paymentId: string
    amountCents?: number
    idempotencyKey: string
  }): Promise<PaymentRef>

  /**
   * What the customer needs to authenticate a payment the bank held back for 3-D Secure (the
   * hold of a card that asks every time): the sandbox's challenge page, or Stripe's client
   * secret and the card to confirm it with. Null when the payment needs nothing from them.
   */
  paymentAction(paymentId: string): Promise<PaymentAction | null>

  /** Reads a payment back from the gateway; null when the gateway has no such payment. */
  retrievePayment(id: string): Promise<GatewayPayment | null>

  /** Reads a refund back from the gateway; null when the gateway has no such refund. */
  retrieveRefund(id: string): Promise<GatewayRefund | null>

  /** Charges and refunds in the gateway's own records since a time (reconciliation). */
  moneyMoved(since: Date): Promise<GatewayMoney[]>

  /** Verifies the signature over the exact raw body and the timestamp; throws WebhookSignatureError. */
  parseWebhook(rawBody: string, signature: string | undefined): GatewayEvent
}

/*
| Errors every gateway maps its provider's errors to.
*/

const AUTHENTICATION_FAILURES = new Set([
  'setup_intent_authentication_failure',
  'payment_intent_authentication_failure',
])

/** The steps of a call a gateway makes in several requests (Stripe's card save). */
export type GatewayStep = 'customer' | 'payment-method' | 'setup' | 'default'

/**
 * The key of one request of a call made in several (a Stripe card save: customer, payment
 * method, setup, default card), derived from the call's own key (`paymentKeys`): the one place
 * such keys are built, so a re-run sends each request under the key it was sent with before.
 */
export const gatewayStepKey = (callKey: string, step: GatewayStep) => `${callKey}:${step}`

/** What a customer is told when their bank did not confirm the card they were saving. */
export const CARD_AUTHENTICATION_FAILED =
  'Your bank did not confirm this card, so it was not saved. Please try again.'

/** The card or the bank said no. Permanent for this request; the message is safe for customers. */
export class CardDeclinedError extends Error {
  constructor(
    public code: string,
    public declineCode: string | null,
    message: string,
    /** The payment the provider kept (one that needs authentication can still be completed). */
    public paymentId: string | null = null
  ) {
    super(message)
    this.name = 'CardDeclinedError'
  }

  get requiresAuthentication() {
    return this.code === 'authentication_required' || this.declineCode === 'authentication_required'
  }

  /** The customer went through the bank's challenge and it refused (or they gave up). */
  get authenticationFailed() {
    return AUTHENTICATION_FAILURES.has(this.code)
  }
}

/** The provider could not be reached or asked us to slow down: the same call may succeed later. */
export class GatewayUnavailableError extends Error {
  constructor(
    public code: string,
    message: string
  ) {
    super(message)
    this.name = 'GatewayUnavailableError'
  }
}

/** The provider refused the request itself (unknown object, wrong state, bad key): a bug or stale data. */
export class GatewayRequestError extends Error {
  constructor(
    public code: string,
    message: string
  ) {
    super(message)
    this.name = 'GatewayRequestError'
  }
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WebhookSignatureError'
  }
}

/**
 * What a customer saving a card is told when the gateway declines it: the reason and what to do
 * ("Your card was declined. Try another card."), never "enter a valid card" for a valid number.
 */
export function savedCardDeclinedMessage(code: string | null | undefined): string {
  const reason = declineMessage(code)
  if (code === 'incorrect_cvc') return `${reason} Check it and try again.`
  return /another card/.test(reason) ? reason : `${reason} Try another card.`
}

/** Customer-facing wording of a decline; never the provider's raw text. */
export function declineMessage(code: string | null | undefined): string {
  switch (code) {
    case 'insufficient_funds':
      return 'Your card has insufficient funds.'
    case 'expired_card':
      return 'Your card has expired.'
    case 'incorrect_cvc':
      return "Your card's security code is incorrect."
    case 'lost_card':
    case 'stolen_card':
    case 'fraudulent':
      return 'Your card was declined.'
    case 'processing_error':
      return 'Your bank could not process the card. Please try again or use another card.'
    case 'authentication_required':
      return 'Your bank asks for authentication on this card, which we cannot do off-session. Please use another card.'
    default:
      return 'Your card was declined.'
  }
}
