/*
| The product's words, written once for the server, the storefront and the console: order
| statuses, sizes, brands, which card pays what, a failed order's words. The server imports this
| as `#shared/vocabulary`, the two Vite apps as `@shared/vocabulary`. Plain data only: nothing
| here may import anything.
*/

export const ORDER_STATUSES = [
  'entered',
  'pending',
  'processing',
  'success',
  'fail',
  'cancelled',
  'retailer_cancelled',
] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/**
 * How every order status reads, for customers, the console and the API's `statusLabel` alike:
 * the one table. A stored `fail` was never charged, so it reads Not secured, not Refunded (the
 * spec's word): only a failed order whose fee was charged and then refunded reads Refunded
 * (`orderStatusLabel` with the fee).
 */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  entered: 'Entered',
  pending: 'Pending',
  processing: 'Processing',
  success: 'Success',
  fail: 'Not secured',
  cancelled: 'Cancelled',
  retailer_cancelled: 'Cancelled by retailer',
}

export const REFUNDED_LABEL = 'Refunded'

/**
 * The label of a stored status, whatever its case (the spec's orders say `Pending` too); with
 * the order's fee, a failed order whose fee was charged and refunded reads Refunded.
 */
export function orderStatusLabel(
  status: string,
  fee?: { status: string; refundedCents: number } | null
): string {
  const value = status.toLowerCase()
  if (value === 'fail' && fee && (fee.status === 'refunded' || fee.refundedCents > 0)) {
    return REFUNDED_LABEL
  }
  return (ORDER_STATUS_LABELS as Record<string, string>)[value] ?? status
}

/** An order that still holds its slot (or its draw entry): one per product and profile at a time. */
export const ACTIVE_ORDER_STATUSES: OrderStatus[] = ['entered', 'pending', 'processing', 'success']

/** none -> paid -> refunded; failed / requires_action when the card said no; waived when forgiven. */
export const FEE_STATUSES = [
  'none',
  'paid',
  'failed',
  'requires_action',
  'refunded',
  'waived',
] as const
export type FeeStatus = (typeof FEE_STATUSES)[number]

/**
 * A successful order's fee that was declined or waits for the customer's authentication
 * (3-D Secure): it is owed, shown as due, tried again by later runs, and may be waived.
 */
export const FEE_DUE_STATUSES = ['failed', 'requires_action'] as const satisfies FeeStatus[]
export type DueFeeStatus = (typeof FEE_DUE_STATUSES)[number]

export function feeStatusIsDue(status: string): status is DueFeeStatus {
  return (FEE_DUE_STATUSES as readonly string[]).includes(status)
}

/** A fee in one of these may still be charged: never tried, or due. */
export const FEE_CHARGEABLE_STATUSES: FeeStatus[] = ['none', ...FEE_DUE_STATUSES]

export function isFeeDue(order: { status: string; feeStatus: string }) {
  return order.status === 'success' && feeStatusIsDue(order.feeStatus)
}

/** The fee status a declined charge leaves: the customer can act on an authentication request. */
export function feeStatusAfterDecline(code: string): DueFeeStatus {
  return code === 'authentication_required' ? 'requires_action' : 'failed'
}

/** How a product's slots are given: the first to check out, or a draw among the entries. */
export const RELEASE_MODES = ['first-come', 'draw'] as const
export type ReleaseMode = (typeof RELEASE_MODES)[number]

export const SIZE_TYPES = ['shoe', 'clothing', 'OS'] as const
export type SizeType = (typeof SIZE_TYPES)[number]

/** US shoe sizes 4 to 14 in half sizes. */
export const SHOE_SIZES = Array.from({ length: 21 }, (_, index) => String(4 + index / 2))
/** The spec's clothing sizes. */
export const CLOTHING_SIZES = ['XS', 'S', 'M', 'L']
/** Clothing sizes an admin may offer: the spec's XS-L, plus XL (the sample tee has it). */
export const ADMIN_CLOTHING_SIZES = [...CLOTHING_SIZES, 'XL']
export const ONE_SIZE = ['OS']

/** The sizes a product of each size type may offer. */
export const SIZES_BY_TYPE: Record<SizeType, string[]> = {
  shoe: SHOE_SIZES,
  clothing: ADMIN_CLOTHING_SIZES,
  OS: ONE_SIZE,
}

/**
 * The retailers a product may name (the retailers it releases at; the first is its seller,
 * whose signed e-mail proves its orders' outcomes): id and display name. The mail intake's
 * sending domains and parsers are keyed by id; New Balance has none yet.
 */
export const RETAILERS = [
  { value: 'nike', label: 'Nike' },
  { value: 'adidas', label: 'adidas' },
  { value: 'footlocker', label: 'Foot Locker' },
  { value: 'kith', label: 'Kith' },
  { value: 'palace', label: 'Palace' },
  { value: 'union', label: 'Union' },
  { value: 'newbalance', label: 'New Balance' },
] as const
export type RetailerId = (typeof RETAILERS)[number]['value']
export const RETAILER_IDS = RETAILERS.map((retailer) => retailer.value) as RetailerId[]

/** A retailer's display name ("New Balance" for `newbalance`); an unknown id as it is. */
export function retailerName(id: string): string {
  return RETAILERS.find((retailer) => retailer.value === id)?.label ?? id
}

/** The brands of the shop's filter and the console's tags: tag value and its display name. */
export const BRANDS = [
  { value: 'adidas', label: 'adidas' },
  { value: 'nike', label: 'Nike' },
  { value: 'shopify', label: 'Shopify' },
  { value: 'kith', label: 'Kith' },
] as const

/*
| Which card pays what, in the words every screen and e-mail uses. The card on file (the
| account's own) takes the $1.00 check when a slot is bought and pays the service fee once the
| retailer confirms the order; a profile's card is the one the checkout uses at the retailer,
| which charges the item to it.
*/

export const CARD_BRAND_LABELS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
}

export type CardShown = { brand?: string | null; last4?: string | null } | null | undefined

/** A card as its owner knows it: "Visa •••• 4242" (null when its last four are not known). */
export function cardName(card: CardShown): string | null {
  if (!card?.last4) return null
  return `${CARD_BRAND_LABELS[card.brand ?? ''] ?? 'Card'} •••• ${card.last4}`
}

/** "your card on file (Visa •••• 4242)", or without the card when it is not known. */
export function cardOnFileName(card: CardShown): string {
  const name = cardName(card)
  return name ? `your card on file (${name})` : 'your card on file'
}

export const CARD_WORDS = {
  /** The sign-up card step: saving charges nothing, and what the card on file pays. */
  saving:
    'Saving this card charges nothing. It becomes your card on file: the $1.00 check goes on it when you buy a slot, and the service fee is charged to it only after the retailer confirms your order.',
  /** What the card on file is for (account page, Update Card). */
  onFile:
    'Your card on file takes the $1.00 check when you buy a slot and pays the service fee only after the retailer confirms your order.',
  /** A profile's card: used at the retailer, never charged by us. */
  profile:
    "A profile's card is the one we check out with at the retailer, who charges the item to it. We never charge it ourselves.",
  /**
   * How long the $1.00 check is held, said once: an uncaptured authorization lapses after about
   * a week, and a waiting order's is renewed before it lapses (app/payments hold renewal).
   */
  check:
    'The $1.00 check is never charged and is released when your order ends. A bank keeps such a check for about a week, so for a release further away we renew it before then: a new $1.00 check, the old one released.',
  /** The same, in a list of short facts. */
  checkShort: '$1.00 card check, never charged',
  /** The service fee. */
  fee: 'The service fee is charged to your card on file only after the retailer confirms your order. A failed order costs nothing.',
} as const

/** The product page at Confirm: the card the $1.00 check goes on and the fee is charged to. */
export function confirmWords(input: { draw: boolean; fee: string; card: CardShown }): string {
  const on = `We place a $1.00 check on ${cardOnFileName(input.card)} now`
  return input.draw
    ? `Confirm to enter the draw. ${on}; the ${input.fee} fee is charged to it only if you win and the order succeeds.`
    : `Confirm to secure the slot. ${on}; the ${input.fee} fee is charged to it only if the order succeeds.`
}

/**
 * A draw's one-entry-per-card refusal. The card it counts is the card on file (the one the
 * $1.00 check is made on), so another profile cannot help: another card on file can.
 */
export function drawCardTakenWords(card: CardShown): string {
  const name = cardName(card)
  return `Your card on file${name ? ` (${name})` : ''} is already entered in this draw: one entry per card. To enter with another card, change the card on file in your account.`
}

/*
| A failed order was never charged: it says what happened and that nothing was charged, in the
| same words on the orders page, its e-mail and the release report. "Refunded" is kept for a fee
| that was charged and then given back.
*/

/** Why an order was not secured, by the failure's category (`failCode`). */
export const NOT_SECURED_REASONS: Record<string, string> = {
  sold_out: 'sold out',
  declined: 'the retailer declined the payment',
  address: 'the retailer refused the shipping address',
  price_cap: 'above your price cap at every retailer',
  other: 'the retailer did not complete the checkout',
}

export type CheckAfterFailure = 'released' | 'releasing' | 'none'

/** What became of a failed order's $1.00 check, from its hold status. */
export function checkAfterFailure(holdStatus: string | null | undefined): CheckAfterFailure {
  if (holdStatus === 'released') return 'released'
  if (holdStatus === 'placed' || holdStatus === 'placing' || holdStatus === 'requires_action') {
    return 'releasing'
  }
  return 'none'
}

/**
 * "Not secured: sold out. Nothing charged; your $1.00 check was released." `whose` is "the"
 * where the reader is not the buyer (the public report's other lines).
 */
export function notSecuredWords(
  reason: string | null | undefined,
  options: { whose?: 'your' | 'the'; check?: CheckAfterFailure } = {}
): string {
  const why = NOT_SECURED_REASONS[reason ?? ''] ?? NOT_SECURED_REASONS.other
  const whose = options.whose ?? 'your'
  const check = options.check ?? 'released'
  const after =
    check === 'none'
      ? ''
      : `; ${whose} $1.00 check ${check === 'released' ? 'was released' : 'is being released'}`
  return `Not secured: ${why}. Nothing charged${after}.`
}

/** The slots a product still has: never below zero, even when more were taken than stocked. */
export function slotsLeft(product: { totalStock: number; stockTaken: number }) {
  return Math.max(0, product.totalStock - product.stockTaken)
}
