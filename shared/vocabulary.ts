/*
| The product's words, written once for the server, the storefront and the console: order
| statuses, sizes, brands. The server imports this as `#shared/vocabulary`, the two Vite apps as
| `@shared/vocabulary`. Plain data only: nothing here may import anything.
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
 * the one table (stored `fail` reads Refunded, as the spec shows it).
 */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  entered: 'Entered',
  pending: 'Pending',
  processing: 'Processing',
  success: 'Success',
  fail: 'Refunded',
  cancelled: 'Cancelled',
  retailer_cancelled: 'Cancelled by retailer',
}

/** The label of a stored status, whatever its case (the spec's orders say `Pending` too). */
export function orderStatusLabel(status: string): string {
  const value = status.toLowerCase()
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
 * The retailers a product may name (its seller: whose signed e-mail proves its orders'
 * outcomes): id and display name. The mail intake's sending domains and parsers are keyed by id.
 */
export const RETAILERS = [
  { value: 'nike', label: 'Nike' },
  { value: 'adidas', label: 'adidas' },
  { value: 'footlocker', label: 'Foot Locker' },
  { value: 'kith', label: 'Kith' },
  { value: 'palace', label: 'Palace' },
  { value: 'union', label: 'Union' },
] as const
export type RetailerId = (typeof RETAILERS)[number]['value']
export const RETAILER_IDS = RETAILERS.map((retailer) => retailer.value) as RetailerId[]

/** The brands of the shop's filter and the console's tags: tag value and its display name. */
export const BRANDS = [
  { value: 'adidas', label: 'adidas' },
  { value: 'nike', label: 'Nike' },
  { value: 'shopify', label: 'Shopify' },
  { value: 'kith', label: 'Kith' },
] as const
