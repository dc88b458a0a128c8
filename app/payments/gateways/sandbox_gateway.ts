import type {
  CardInput,
  CardSetupAction,
  CardToken,
  GatewayEvent,
  GatewayMoney,
  GatewayPayment,
  GatewayRefund,
  PaymentAction,
  PaymentGateway,
  PaymentRef,
  SavedCard,
} from '#payments/gateways/payment_gateway'
import { verifyStripeStyleWebhook } from '#payments/gateways/webhook_signature'
import { SandboxCards } from '#payments/gateways/sandbox/cards'
import type { SandboxContext, SandboxGatewayOptions } from '#payments/gateways/sandbox/context'
import { SandboxLedger } from '#payments/gateways/sandbox/ledger'
import { SandboxPaymentIntents } from '#payments/gateways/sandbox/payment_intents'
import { SandboxRateBudget } from '#payments/gateways/sandbox/rate_budget'
import { SandboxRefunds } from '#payments/gateways/sandbox/refunds'
import { SandboxSetupIntents } from '#payments/gateways/sandbox/setup_intents'

export {
  sandboxChallengeUrl,
  sandboxChallenges,
  type SandboxChallenge,
} from '#payments/gateways/sandbox/challenges'

/**
 * The embedded payment gateway: real, persistent state in our database with Stripe's semantics
 * (customers, saved cards, manual-capture holds, off-session charges, refunds, idempotent
 * replays, 429s past the request rate) and Stripe's test cards. Nothing leaves the machine.
 * Each resource lives in `sandbox/`; they share the options and one request-rate budget.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const
  private cards: SandboxCards
  private setupIntents: SandboxSetupIntents
  private paymentIntents: SandboxPaymentIntents
  private refunds: SandboxRefunds
  private ledger: SandboxLedger

  constructor(private options: SandboxGatewayOptions) {
    const budget = new SandboxRateBudget(options)
    const sandbox: SandboxContext = { options, enter: () => budget.enter() }
    this.setupIntents = new SandboxSetupIntents(sandbox)
    this.cards = new SandboxCards(sandbox, this.setupIntents)
    this.paymentIntents = new SandboxPaymentIntents(sandbox)
    this.refunds = new SandboxRefunds(sandbox)
    this.ledger = new SandboxLedger(sandbox)
  }

  createCardToken(card: CardInput): Promise<CardToken> {
    return this.cards.createCardToken(card)
  }

  saveCard(input: {
    customerId: string | null
    email: string
    name: string
    reference: string
    token: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction> {
    return this.cards.saveCard(input)
  }

  confirmCardSetup(input: {
    setupId: string
    customerId: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction> {
    return this.setupIntents.confirmCardSetup(input)
  }

  cardFingerprint(input: { customerId: string; paymentMethodId: string }): Promise<string | null> {
    return this.cards.cardFingerprint(input)
  }

  deleteCustomer(input: { customerId: string; idempotencyKey: string }): Promise<void> {
    return this.cards.deleteCustomer(input)
  }

  placeHold(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef> {
    return this.paymentIntents.placeHold(input)
  }

  releaseHold(input: { paymentId: string; idempotencyKey: string }): Promise<PaymentRef> {
    return this.paymentIntents.releaseHold(input)
  }

  chargeFee(input: {
    customerId: string
    paymentMethodId: string
    amountCents: number
    description: string
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<PaymentRef> {
    return this.paymentIntents.chargeFee(input)
  }

  refund(input: {
    paymentId: string
    amountCents?: number
    idempotencyKey: string
  }): Promise<PaymentRef> {
    return this.refunds.refund(input)
  }

  parseWebhook(rawBody: string, signature: string | undefined): GatewayEvent {
    return verifyStripeStyleWebhook(
      rawBody,
      signature,
      this.options.webhookSecret,
      this.options.webhookToleranceSeconds
    )
  }

  retrievePayment(id: string): Promise<GatewayPayment | null> {
    return this.paymentIntents.retrievePayment(id)
  }

  retrieveRefund(id: string): Promise<GatewayRefund | null> {
    return this.refunds.retrieveRefund(id)
  }

  paymentAction(paymentId: string): Promise<PaymentAction | null> {
    return this.paymentIntents.paymentAction(paymentId)
  }

  moneyMoved(since: Date): Promise<GatewayMoney[]> {
    return this.ledger.moneyMoved(since)
  }

  /** A payment intent as the sandbox keeps it (tests, and the admin's view of the sandbox). */
  findIntent(id: string) {
    return this.paymentIntents.findIntent(id)
  }
}
