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

/*
| Every pattern is matched against text already folded by `foldText`: at most MAX_TEXT_CHARS,
| lines of at most MAX_LINE_CHARS, each line's whitespace runs made one space and trimmed. So no
| pattern needs `\s*` (a run of spaces can never be split two ways) and the line patterns run on
| one line at a time: each costs time linear in the line, whatever a sender puts in it.
*/
const SHOPIFY: Patterns = {
  cancelled: /order #?[\w-]+ (?:has been|was) cancel+ed/i,
  shipped: /shipment from order #?[\w-]+ is on the way|your order is on the way/i,
  confirmation: /order #?[\w-]+ confirmed|thank you for your purchase/i,
  orderNumber: /order #([A-Z0-9-]{3,40})/i,
  item: /^([^ ].*) [×x] ?[0-9]{1,4}$/,
  size: /^(?:size ?:? ?)?([0-9]{1,2}(?:\.5)?|XXS|XS|S|M|L|XL|XXL|OS)(?: ?\/.*)?$/i,
  total: /^total ?:? ?\$ ?([0-9][0-9,]{0,12}\.[0-9]{2})/i,
  tracking: /tracking number ?:? ?([A-Z0-9]{8,40})/i,
}

const NIKE: Patterns = {
  cancelled: /(?:order|it) (?:has been|was) cancel+ed|cancel+ation/i,
  shipped: /(?:order|it) (?:has )?shipped|on (?:its|the) way/i,
  confirmation: /thanks for your order|we(?:'|’)ve received your order|order confirmation/i,
  orderNumber: /order (?:number|no\.?|#) ?:? ?([A-Z0-9-]{5,40})/i,
  item: /^(?:item|product) ?: ?(.+)$/i,
  size: /^size ?: ?([A-Z0-9. ]{1,8})$/i,
  total: /^(?:order )?total ?:? ?\$ ?([0-9][0-9,]{0,12}\.[0-9]{2})/i,
  tracking: /tracking (?:number|no\.?|#) ?:? ?([A-Z0-9]{8,40})/i,
}

const ADIDAS: Patterns = {
  cancelled: /(?:order|it) (?:has been|was) cancel+ed|cancel+ation of your order/i,
  shipped: /(?:order|parcel) is on (?:its|the) way|has been dispatched|has shipped/i,
  confirmation: /order confirmation|thank you for your order|we(?:'|’)ve got your order/i,
  orderNumber: /order (?:number|no\.?|#) ?:? ?([A-Z0-9-]{5,40})/i,
  item: /^(?:article|item|product) ?: ?(.+)$/i,
  size: /^size ?: ?([A-Z0-9. ]{1,8})$/i,
  total: /^(?:order )?total ?:? ?\$ ?([0-9][0-9,]{0,12}\.[0-9]{2})/i,
  tracking: /tracking (?:number|no\.?|#) ?:? ?([A-Z0-9]{8,40})/i,
}

const FOOT_LOCKER: Patterns = {
  cancelled: /(?:order|it) (?:has been|was) cancel+ed|we(?:'|’)ve cancel+ed/i,
  shipped: /(?:order|it) (?:has )?shipped|is on its way/i,
  confirmation: /thanks for (?:your order|shopping)|order confirmation|we got your order/i,
  orderNumber: /order (?:number|no\.?|#) ?:? ?([A-Z0-9-]{5,40})/i,
  item: /^(?:item|product) ?: ?(.+)$/i,
  size: /^size ?: ?([A-Z0-9. ]{1,8})$/i,
  total: /^(?:order )?total ?:? ?\$ ?([0-9][0-9,]{0,12}\.[0-9]{2})/i,
  tracking: /tracking (?:number|no\.?|#) ?:? ?([A-Z0-9]{8,40})/i,
}

/** The most of a message's text a parser reads (retailers' notifications are a few KB). */
export const MAX_TEXT_CHARS = 256 * 1024
/** The longest line a parser reads; a longer one is skipped whole. */
export const MAX_LINE_CHARS = 1000

/**
 * The text as the patterns read it: cut at MAX_TEXT_CHARS, split into lines, each line's
 * whitespace runs made one space and trimmed, over-long and empty lines dropped.
 */
export function foldText(text: string): string[] {
  const lines: string[] = []
  for (const line of text.slice(0, MAX_TEXT_CHARS).split('\n')) {
    if (line.length > MAX_LINE_CHARS) continue
    const folded = line.replace(/\s+/g, ' ').trim()
    if (folded) lines.push(folded)
  }
  return lines
}

function centsOf(value: string | undefined): number | null {
  if (!value) return null
  const cents = Math.round(Number(value.replace(/,/g, '')) * 100)
  return Number.isSafeInteger(cents) ? cents : null
}

/** The first capture of `pattern` on the first line it matches. */
function firstOnLines(pattern: RegExp, lines: string[]): string | null {
  for (const line of lines) {
    const match = pattern.exec(line)
    if (match) return match[1]
  }
  return null
}

/**
 * A parser from a retailer's patterns: the kind from the subject first (the retailers' subjects
 * say it plainly), then the body; cancelled before shipped before confirmed (a cancellation
 * quotes the order it cancels). The fields are read from the body's text.
 */
function parserOf(patterns: Patterns) {
  return ({ subject, text }: MailText): ParsedMail => {
    const lines = foldText(text)
    const body = lines.join('\n')
    const title = foldText(subject.slice(0, MAX_LINE_CHARS)).join(' ')
    const kindIn = (value: string): MailKind | null =>
      patterns.cancelled.test(value)
        ? 'cancelled'
        : patterns.shipped.test(value)
          ? 'shipped'
          : patterns.confirmation.test(value)
            ? 'confirmation'
            : null
    const kind = kindIn(title) ?? kindIn(body) ?? 'unknown'
    const orderNumber =
      patterns.orderNumber.exec(title)?.[1] ?? patterns.orderNumber.exec(body)?.[1] ?? null
    return {
      kind: orderNumber ? kind : 'unknown',
      orderNumber,
      item: firstOnLines(patterns.item, lines)?.trim().slice(0, 255) ?? null,
      size: firstOnLines(patterns.size, lines)?.trim() ?? null,
      totalCents: centsOf(firstOnLines(patterns.total, lines) ?? undefined),
      trackingNumber: kind === 'shipped' ? (patterns.tracking.exec(body)?.[1] ?? null) : null,
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
