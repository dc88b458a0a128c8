import type { OrderRecord } from '#orders/services/order_queries'
import type {
  CardInput,
  CardSetupAction,
  CardToken,
  GatewayPayment,
  PaymentAction,
  SavedCard,
} from '#payments/gateways/payment_gateway'
import { ledger } from '#payments/services/ledger'
import {
  cardPayments,
  type ConfirmCardSetupInput,
  type DeleteCustomerInput,
  type SaveCardInput,
} from '#payments/services/card_payments'
import {
  holdPlacement,
  type HoldOutcome,
  type RenewalOutcome,
} from '#payments/services/hold_placement'
import { holdRelease, type ReleaseOutcome } from '#payments/services/hold_release'
import { HoldAuthentication } from '#payments/services/hold_authentication'
import { feePayments, type FeeOutcome } from '#payments/services/fee_payments'
import { refundPayments, type RefundOutcome } from '#payments/services/refund_payments'

export type { HoldOutcome, RenewalOutcome, ReleaseOutcome, FeeOutcome, RefundOutcome }
export { holdTimesFrom } from '#payments/services/hold_placement'
export {
  isLateRefundKey,
  keysOf,
  legacyPaymentKeys,
  paymentKeys,
} from '#payments/services/payment_keys'

/**
 * Money for an order: the $1.00 hold, its release, the fee on success, and refunds. Every method
 * writes the ledger row before the gateway call and completes it after (`withLedger`), uses the
 * order's fixed idempotency key, and moves the order's payment columns with conditional updates,
 * so it can be re-run after a crash at any line without charging twice. None of them runs inside
 * a database transaction (a provider round trip never holds locks).
 */
export class PaymentService {
  // Built on this service, so its steps reach the methods as they stand on `paymentService`.
  private authentication: HoldAuthentication = new HoldAuthentication(this)

  /** Cards: `card_payments.ts`. */
  async createCardToken(card: CardInput, userId: number | null): Promise<CardToken> {
    return cardPayments.createCardToken(card, userId)
  }

  async saveCard(input: SaveCardInput): Promise<SavedCard | CardSetupAction> {
    return cardPayments.saveCard(input)
  }

  async confirmCardSetup(input: ConfirmCardSetupInput): Promise<SavedCard | CardSetupAction> {
    return cardPayments.confirmCardSetup(input)
  }

  async deleteCustomer(input: DeleteCustomerInput): Promise<void> {
    return cardPayments.deleteCustomer(input)
  }

  /** Holds: placed and renewed in `hold_placement.ts`, released in `hold_release.ts`. */
  async placeHold(orderOrId: OrderRecord | number): Promise<HoldOutcome> {
    return holdPlacement.placeHold(orderOrId)
  }

  async renewHold(
    orderOrId: OrderRecord | number,
    options: { lapsed?: boolean } = {}
  ): Promise<RenewalOutcome> {
    return holdPlacement.renewHold(orderOrId, options)
  }

  async releaseHold(orderOrId: OrderRecord | number): Promise<ReleaseOutcome> {
    return holdRelease.releaseHold(orderOrId)
  }

  async releaseSupersededHolds(orderOrId: OrderRecord | number): Promise<number> {
    return holdRelease.releaseSupersededHolds(orderOrId)
  }

  /** 3-D Secure on a hold: `hold_authentication.ts`. */
  async holdAction(orderOrId: OrderRecord | number): Promise<PaymentAction | null> {
    return this.authentication.holdAction(orderOrId)
  }

  async confirmHoldAuthentication(orderOrId: OrderRecord | number) {
    return this.authentication.confirmHoldAuthentication(orderOrId)
  }

  async recordAuthenticatedHold(
    order: OrderRecord,
    paymentId: string
  ): Promise<GatewayPayment | null> {
    return this.authentication.recordAuthenticatedHold(order, paymentId)
  }

  async abandonHoldAuthentication(order: OrderRecord, paymentId: string): Promise<void> {
    return this.authentication.abandonHoldAuthentication(order, paymentId)
  }

  /** The fee: `fee_payments.ts`. */
  async chargeFee(
    orderOrId: OrderRecord | number,
    options: { retry?: boolean } = {}
  ): Promise<FeeOutcome> {
    return feePayments.chargeFee(orderOrId, options)
  }

  async feeCallInFlight(orderId: number): Promise<boolean> {
    return feePayments.feeCallInFlight(orderId)
  }

  /** Refunds: `refund_payments.ts`. */
  async refund(
    orderOrId: OrderRecord | number,
    options: { amountCents?: number; retailerCancel?: boolean } = {}
  ): Promise<RefundOutcome> {
    return refundPayments.refund(orderOrId, options)
  }

  async refundLatePayment(
    orderOrId: OrderRecord | number,
    payment: { id: string; amountCents: number }
  ): Promise<RefundOutcome> {
    return refundPayments.refundLatePayment(orderOrId, payment)
  }

  /** The ledger rows of an order, oldest first (admin views, support). */
  async ledgerFor(orderId: number) {
    return ledger.forOrder(orderId)
  }

  /**
   * Money actually moved, from the ledger (dashboard): fees captured (succeeded fee rows) and
   * refunded (succeeded refund rows), in cents.
   */
  async totals(): Promise<{ capturedCents: number; refundedCents: number }> {
    return ledger.totals()
  }
}

export const paymentService = new PaymentService()
