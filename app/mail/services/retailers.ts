/*
| The retailers whose e-mail the intake reads: the shops the catalogue sells, each with the
| domains it signs its mail with (DKIM `d=`) and a parser for its notification e-mails. A product
| names its retailer (`products.retailer`); only that retailer's signed mail moves an order's
| money. Kith, Palace and Union run on Shopify and send Shopify's standard notifications.
*/

export type MailKind = 'confirmation' | 'shipped' | 'cancelled' | 'unknown'

/** What a retailer's e-mail says (never card data: retailers mask it, and it is not read). */
export type ParsedMail = {
  kind: MailKind
  orderNumber: string | null
  item: string | null
  size: string | null
  totalCents: number | null
  trackingNumber: string | null
}

export type MailText = { subject: string; text: string }

type Patterns = {
  cancelled: RegExp
  shipped: RegExp
  confirmation: RegExp
  orderNumber: RegExp
  item: RegExp
  size: RegExp
  total: RegExp
  tracking: RegExp
}

export type Retailer = {
  id: string
  name: string
  /** The domains its mail is signed by; a subdomain of one counts as it. */
  domains: string[]
  /** Shopify's standard notifications, or the retailer's own templates. */
  platform: 'shopify' | 'own'
  parse(mail: MailText): ParsedMail
}

const SHOPIFY: Patterns = {
  cancelled: /order #?[\w-]+ (?:has been|was) cancel+ed/i,
  shipped: /shipment from order #?[\w-]+ is on the way|your order is on the way/i,
  confirmation: /order #?[\w-]+ confirmed|thank you for your purchase/i,
  orderNumber: /order #([A-Z0-9-]{3,40})/i,
  item: /^\s*(.+?)\s+[×x]\s*\d+\s*$/m,
  size: /^\s*(?:size\s*:?\s*)?([0-9]{1,2}(?:\.5)?|XXS|XS|S|M|L|XL|XXL|OS)\s*(?:\/.*)?$/im,
  total: /^\s*total\s*:?\s*\$\s?([0-9][0-9,]*\.[0-9]{2})/im,
  tracking: /tracking number\s*:?\s*([A-Z0-9]{8,40})/i,
}

const NIKE: Patterns = {
  cancelled: /(?:order|it) (?:has been|was) cancel+ed|cancel+ation/i,
  shipped: /(?:order|it) (?:has )?shipped|on (?:its|the) way/i,
  confirmation: /thanks for your order|we(?:'|’)ve received your order|order confirmation/i,
  orderNumber: /order (?:number|no\.?|#)\s*:?\s*([A-Z0-9-]{5,40})/i,
  item: /^\s*(?:item|product)\s*:\s*(.+)$/im,
  size: /^\s*size\s*:\s*([A-Z0-9. ]{1,8})\s*$/im,
  total: /^\s*(?:order )?total\s*:?\s*\$\s?([0-9][0-9,]*\.[0-9]{2})/im,
  tracking: /tracking (?:number|no\.?|#)\s*:?\s*([A-Z0-9]{8,40})/i,
}

const ADIDAS: Patterns = {
  cancelled: /(?:order|it) (?:has been|was) cancel+ed|cancel+ation of your order/i,
  shipped: /(?:order|parcel) is on (?:its|the) way|has been dispatched|has shipped/i,
  confirmation: /order confirmation|thank you for your order|we(?:'|’)ve got your order/i,
  orderNumber: /order (?:number|no\.?|#)\s*:?\s*([A-Z0-9-]{5,40})/i,
  item: /^\s*(?:article|item|product)\s*:\s*(.+)$/im,
  size: /^\s*size\s*:\s*([A-Z0-9. ]{1,8})\s*$/im,
  total: /^\s*(?:order )?total\s*:?\s*\$\s?([0-9][0-9,]*\.[0-9]{2})/im,
  tracking: /tracking (?:number|no\.?|#)\s*:?\s*([A-Z0-9]{8,40})/i,
}

const FOOT_LOCKER: Patterns = {
  cancelled: /(?:order|it) (?:has been|was) cancel+ed|we(?:'|’)ve cancel+ed/i,
  shipped: /(?:order|it) (?:has )?shipped|is on its way/i,
  confirmation: /thanks for (?:your order|shopping)|order confirmation|we got your order/i,
  orderNumber: /order (?:number|no\.?|#)\s*:?\s*([A-Z0-9-]{5,40})/i,
  item: /^\s*(?:item|product)\s*:\s*(.+)$/im,
  size: /^\s*size\s*:\s*([A-Z0-9. ]{1,8})\s*$/im,
  total: /^\s*(?:order )?total\s*:?\s*\$\s?([0-9][0-9,]*\.[0-9]{2})/im,
  tracking: /tracking (?:number|no\.?|#)\s*:?\s*([A-Z0-9]{8,40})/i,
}

function centsOf(value: string | undefined): number | null {
  if (!value) return null
  const cents = Math.round(Number(value.replace(/,/g, '')) * 100)
  return Number.isSafeInteger(cents) ? cents : null
}

/**
 * A parser from a retailer's patterns: the kind from the subject first (the retailers' subjects
 * say it plainly), then the body; cancelled before shipped before confirmed (a cancellation
 * quotes the order it cancels). The fields are read from the body's text.
 */
function parserOf(patterns: Patterns) {
  return ({ subject, text }: MailText): ParsedMail => {
    const kindIn = (value: string): MailKind | null =>
      patterns.cancelled.test(value)
        ? 'cancelled'
        : patterns.shipped.test(value)
          ? 'shipped'
          : patterns.confirmation.test(value)
            ? 'confirmation'
            : null
    const kind = kindIn(subject) ?? kindIn(text) ?? 'unknown'
    const orderNumber =
      patterns.orderNumber.exec(subject)?.[1] ?? patterns.orderNumber.exec(text)?.[1] ?? null
    return {
      kind: orderNumber ? kind : 'unknown',
      orderNumber,
      item: patterns.item.exec(text)?.[1]?.trim().slice(0, 255) ?? null,
      size: patterns.size.exec(text)?.[1]?.trim() ?? null,
      totalCents: centsOf(patterns.total.exec(text)?.[1]),
      trackingNumber: kind === 'shipped' ? (patterns.tracking.exec(text)?.[1] ?? null) : null,
    }
  }
}

export const RETAILERS: readonly Retailer[] = [
  {
    id: 'nike',
    name: 'Nike',
    domains: ['nike.com', 'official.nike.com', 'notifications.nike.com'],
    platform: 'own',
    parse: parserOf(NIKE),
  },
  {
    id: 'adidas',
    name: 'adidas',
    domains: ['adidas.com', 'info.adidas.com', 'mail.adidas.com'],
    platform: 'own',
    parse: parserOf(ADIDAS),
  },
  {
    id: 'footlocker',
    name: 'Foot Locker',
    domains: ['footlocker.com', 'e.footlocker.com', 'em.footlocker.com'],
    platform: 'own',
    parse: parserOf(FOOT_LOCKER),
  },
  {
    id: 'kith',
    name: 'Kith',
    domains: ['kith.com'],
    platform: 'shopify',
    parse: parserOf(SHOPIFY),
  },
  {
    id: 'palace',
    name: 'Palace',
    domains: ['palaceskateboards.com'],
    platform: 'shopify',
    parse: parserOf(SHOPIFY),
  },
  {
    id: 'union',
    name: 'Union',
    domains: ['unionlosangeles.com'],
    platform: 'shopify',
    parse: parserOf(SHOPIFY),
  },
]

export const RETAILER_IDS = RETAILERS.map((retailer) => retailer.id)

export function retailerById(id: string | null | undefined): Retailer | null {
  return RETAILERS.find((retailer) => retailer.id === id) ?? null
}

/** Is `domain` one of the retailer's sending domains (or a subdomain of one)? */
export function signsFor(retailer: Retailer, domain: string | null | undefined): boolean {
  const value = domain?.trim().toLowerCase().replace(/\.$/, '')
  if (!value) return false
  return retailer.domains.some((own) => value === own || value.endsWith(`.${own}`))
}

/** The retailer whose sending domains include this one (a From or a signature's domain). */
export function retailerOfDomain(domain: string | null | undefined): Retailer | null {
  return RETAILERS.find((retailer) => signsFor(retailer, domain)) ?? null
}
