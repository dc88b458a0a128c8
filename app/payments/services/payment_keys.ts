import paymentsConfig from '#config/payments'

/** What a key needs of an order: its public id (new keys) and row id (keys written before). */
export type KeyedOrder = { id: number; publicId: string }

/** The purpose part of a late payment's refund key: such refunds are not refunds of the fee. */
const LATE_REFUND = 'late-refund'

export function isLateRefundKey(key: string) {
  return key.includes(`-${LATE_REFUND}-`)
}

/** `{installationId}-{part}-{part}...`: unique across installations and database resets. */
const installKey = (...parts: (string | number)[]) =>
  [paymentsConfig.installationId, ...parts].join('-')

/**
 * Idempotency keys, the one place they are built: fixed per order and purpose, so a re-run is
 * the same provider request, and carrying the installation id and the order's public id, so no
 * other install (nor this one after a database reset) ever sends the same key, e.g.
 * `{installationId}-{orderPublicId}-hold`.
 */
export const paymentKeys = {
  hold: (order: KeyedOrder, round = 1) =>
    round <= 1 ? installKey(order.publicId, 'hold') : installKey(order.publicId, 'hold', round),
  holdRelease: (order: KeyedOrder, round = 1) =>
    round <= 1
      ? installKey(order.publicId, 'hold-release')
      : installKey(order.publicId, 'hold-release', round),
  fee: (order: KeyedOrder, attempt = 1) =>
    attempt <= 1 ? installKey(order.publicId, 'fee') : installKey(order.publicId, 'fee', attempt),
  refund: (order: KeyedOrder, n = 1) =>
    n <= 1 ? installKey(order.publicId, 'refund') : installKey(order.publicId, 'refund', n),
  /** The whole fee back because the retailer cancelled the order after confirming it (once). */
  retailerCancelRefund: (order: KeyedOrder) => installKey(order.publicId, 'retailer-cancel-refund'),
  /** The refund of a payment that landed after the order stopped owing it (one per payment). */
  lateRefund: (order: KeyedOrder, paymentRef: string) =>
    installKey(order.publicId, LATE_REFUND, paymentRef),
  saveCard: (userUuid: string, token: string) => installKey('user', userUuid, 'card', token),
  cardSetup: (userUuid: string, setupId: string) =>
    installKey('user', userUuid, 'card-setup', setupId),
  deleteCustomer: (customerId: string) => installKey('customer', customerId, 'delete'),
  /** A card token request (genToken): its own row each time, never sent to the gateway as a key. */
  cardToken: (nonce: string) => installKey('token', nonce),
}

/**
 * The keys of earlier versions (by order row id). Ledger rows written under them are still
 * found, and a call they left unfinished is resumed with the key the provider already saw. Only
 * first rounds and first refunds existed then.
 */
export const legacyPaymentKeys: Partial<Record<keyof typeof paymentKeys, Function>> = {
  hold: (order: KeyedOrder, round = 1) => (round <= 1 ? `order:${order.id}:hold` : null),
  holdRelease: (order: KeyedOrder, round = 1) =>
    round <= 1 ? `order:${order.id}:hold-release` : null,
  fee: (order: KeyedOrder, attempt = 1) =>
    attempt <= 1 ? `order:${order.id}:fee` : `order:${order.id}:fee:${attempt}`,
  refund: (order: KeyedOrder, n = 1) => (n <= 1 ? `order:${order.id}:refund` : null),
  saveCard: (userUuid: string, token: string) => `user:${userUuid}:card:${token}`,
}

/** The key of a call and, when an earlier version had one for it, that key too (ledger look-ups). */
export function keysOf<K extends keyof typeof paymentKeys>(
  name: K,
  ...args: Parameters<(typeof paymentKeys)[K]>
): { key: string; legacyKey: string | null } {
  const build = paymentKeys[name] as (...values: unknown[]) => string
  const legacy = legacyPaymentKeys[name] as ((...values: unknown[]) => string | null) | undefined
  return { key: build(...args), legacyKey: legacy ? legacy(...args) : null }
}
