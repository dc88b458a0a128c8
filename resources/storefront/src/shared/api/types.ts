/** Shapes of the API's answers (see the calls table of the spec, section 7). */
export type SizeType = 'shoe' | 'clothing' | 'OS'

export type Product = {
  productId: number
  productTitle: string
  productImage: string | null
  description: string | null
  price: number
  priceCents: number
  sizeType: SizeType
  styles: string
  tags: string
  sizes: string[]
  avail: boolean
  totalStock: number
  stockTaken: number
  releaseAt: string | null
  /** The IANA zone the release is announced in, e.g. America/New_York. */
  releaseTimeZone?: string
  /** 'draw': the Checkout button enters a draw, decided verifiably when entries close. */
  mode?: 'first-come' | 'draw'
  entryOpensAt?: string | null
  entryClosesAt?: string | null
  /** A waiting room: the sale opens at `opensAt`, the line forms `minutes` before it. */
  queue?: { opensAt: string; minutes: number; letThroughPerMinute: number } | null
}

/** GET|POST /api/products/:id/queue; `memberId` is the customer's id in the line's proof. */
export type LineStatus =
  | {
      state: 'waiting'
      opensAt: string
      secondsLeft: number
      memberId: string
      round: number | null
    }
  | { state: 'drawing'; memberId: string; round: number | null; reason: string | null }
  | {
      state: 'in_line'
      memberId: string
      place: number
      ahead: number
      letThroughPerMinute: number
    }
  | { state: 'admitted'; memberId: string; place: number; pass: string; expiresAt: string }
  | { state: 'spent' | 'expired'; memberId: string; place: number }

export type { DrawProof, InclusionProof, LineProof } from '@shared/draw'

export type BillingAddress = {
  line1: string
  line2: string | null
  city: string
  postal_code: string
  state: string
  country: string
}

export type UserInfo = {
  uuid: string
  email: string
  name: string
  firstName: string | null
  lastName: string | null
  phone: string | null
  role: string
  billingAddress: BillingAddress | null
  billingLast4: string | null
  cardBrand: string | null
  cardExpMonth: number | null
  cardExpYear: number | null
}

export type Address = {
  address1: string
  address2: string
  firstName: string
  lastName: string
  city: string
  zip: string
  state: string
  country: string
}

export type Profile = {
  profileId: string
  profileName: string
  email: string
  phone: string
  shipping: Address
  billing: Address
  card: {
    name: string | null
    last4: string
    cardType: string
    month: string
    year: string
    /** False once the security code was deleted: the next checkout asks for it. */
    codeKept?: boolean
  }
  /** The customer chose to keep the security code for later releases. */
  keepCardCode?: boolean
}

export type OrderStatus =
  'entered' | 'pending' | 'processing' | 'success' | 'fail' | 'cancelled' | 'retailer_cancelled'

export type Order = {
  orderId: string
  /** The short confirmation number (`DS-7K3Q9X`) shown to the customer and in every e-mail. */
  orderNumber?: string
  productId: number
  productTitle: string
  price: number
  priceCents: number
  style: string
  size: string
  email: string
  name: string
  status: OrderStatus | string
  orderDate: string
  profileId: string | null
  promoCode: string | null
  statusReason?: string | null
  /** The retailer's confirmation number, on a successful order. */
  confirmationNumber?: string | null
  /**
   * The $1.00 card check: queued, placing, placed, declined, released or skipped; or
   * requires_action while the bank waits for the customer's 3-D Secure, until `confirmBy`.
   */
  hold?: { status: string; amountCents: number; confirmBy?: string | null }
  /** The service fee: none (not charged), paid, failed/requires_action (due), refunded, waived. */
  fee?: { status: string; amountCents: number; refundedCents: number }
  /** The customer's own entry id in a draw's published proof. */
  drawEntryId?: string | null
}

/** `POST /api/user/billing/set` address payload. */
export type BillingPayload = {
  address1: string
  address2: string
  city: string
  zip: string
  state: string
  country: string
}

/** A card whose bank asks for 3-D Secure before it is saved (billing/set, billing/confirmCard). */
export type CardAuthentication = {
  setupId: string
  /** The sandbox's challenge page on this site; null with Stripe. */
  challengeUrl: string | null
  /** For Stripe.js; null with the sandbox. */
  clientSecret: string | null
}

/** billing/set and billing/confirmCard: saved (the user), or the challenge still to complete. */
export type CardSaveAnswer =
  | { success: true; user: UserInfo; authentication?: undefined }
  | { success: false; code: string; message: string; authentication: CardAuthentication }
