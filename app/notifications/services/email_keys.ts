/*
| The outbox's dedupe keys, the one place they are built: a message written twice under the same
| key (a step run again after a crash, a job delivered twice) is one row, one e-mail. The formats
| are the ones rows were written under before, so an upgrade never sends a message again.
*/

/** What a key needs of an order: its row id, and its round (1, then 2... after a retry). */
export type EmailKeyedOrder = { id: number; holdRound?: number | null }

/** Messages about an order's outcome and money tools: once per order, kind and round. */
export type RoundEmailKind = 'received' | 'secured' | 'failed' | 'retried' | 'corrected'

export const emailKeys = {
  /** `order:12:secured`, and `order:12:secured:r2` for the order's second round. */
  orderRound(order: EmailKeyedOrder, kind: RoundEmailKind) {
    const round = order.holdRound ?? 1
    return round <= 1 ? `order:${order.id}:${kind}` : `order:${order.id}:${kind}:r${round}`
  },
  /** The receipt of a new order (always its first round). */
  receipt: (order: { id: number }) => emailKeys.orderRound({ id: order.id }, 'received'),
  drawEntered: (order: { id: number }) => `order:${order.id}:draw-entered`,
  drawWon: (order: { id: number }) => `order:${order.id}:draw-won`,
  drawNotSelected: (order: { id: number }) => `order:${order.id}:draw-not-selected`,
  /** An alternate who takes a winner's place. */
  drawPromoted: (order: { id: number }) => `order:${order.id}:draw-promoted`,
  holdDeclined: (order: { id: number }) => `order:${order.id}:hold-declined`,
  holdNeedsConfirmation: (order: EmailKeyedOrder) =>
    `order:${order.id}:hold-needs-confirmation:${order.holdRound ?? 1}`,
  /** Once per charge attempt of the fee. */
  feeDeclined: (order: { id: number }, attempt: number) =>
    `order:${order.id}:fee-declined:${attempt}`,
  feeWaived: (order: { id: number }) => `order:${order.id}:fee-waived`,
  /** The retailer cancelled a confirmed order (its signed e-mail): once per order. */
  retailerCancelled: (order: { id: number }) => `order:${order.id}:retailer-cancelled`,
  extraSuccess: (order: { id: number }, retailer: string) => `order:${order.id}:extra:${retailer}`,
  /** Once per refund: the refund's own ledger key (`paymentKeys.refund`), made the e-mail's. */
  refund: (refundLedgerKey: string) => `${refundLedgerKey}:email`,
  welcome: (user: { id: number }) => `user:${user.id}:welcome`,
  /** An alert incident's notice to the operator: once when it opens, once when it resolves. */
  incident: (incident: { id: number }, event: 'opened' | 'resolved') =>
    `incident:${incident.id}:${event}`,
  newsletter: (email: string) => `newsletter:${email}`,
}
