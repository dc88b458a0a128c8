/**
 * Customers read their own words: a checkout engine's failure text ("ERR 403 akamai blocked
 * proxy 10.2.3.4", a stack trace, a card number a bot echoed) stays on the order for admins, and
 * the customer is told one of five plain reasons, chosen from the engine's code when it gives one
 * (`sold_out`, `declined`, `address`, `price_cap`, `other`) or else from its words. `price_cap`
 * is also the release run's own: an order never sent because of the buyer's cap.
 */
export const FAILURE_CODES = ['sold_out', 'declined', 'address', 'price_cap', 'other'] as const
export type FailureCode = (typeof FAILURE_CODES)[number]

const CUSTOMER_TEXT: Record<FailureCode, string> = {
  sold_out: 'the release sold out at the retailer before your checkout went through.',
  declined: 'the retailer declined the payment for the item.',
  address: 'the retailer did not accept the shipping address of your profile.',
  price_cap:
    'the retail price was above your price cap at every retailer you chose, so it was not tried.',
  other: 'the retailer did not complete the checkout.',
}

const PATTERNS: [FailureCode, RegExp][] = [
  ['sold_out', /sold[\s_-]?out|out[\s_-]of[\s_-]stock|no stock|size unavailable|oos\b/i],
  ['address', /address|shipping|postal|zip\b|postcode/i],
  ['declined', /declin|payment|card|billing|insufficient funds|3ds|authenticat/i],
]

/** The category of a failure: the engine's own code when valid, else read from its text. */
export function failureCode(code: unknown, reason: string | null | undefined): FailureCode {
  if (typeof code === 'string') {
    const normalised = code.trim().toLowerCase().replace(/[\s-]/g, '_')
    if ((FAILURE_CODES as readonly string[]).includes(normalised)) return normalised as FailureCode
  }
  for (const [category, pattern] of PATTERNS) {
    if (reason && pattern.test(reason)) return category
  }
  return 'other'
}

/** The sentence a customer reads for a failure category. */
export function customerReason(code: string | null | undefined): string {
  return CUSTOMER_TEXT[
    (FAILURE_CODES as readonly string[]).includes(code ?? '') ? (code as FailureCode) : 'other'
  ]
}
