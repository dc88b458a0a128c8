import { orderNumber } from '#orders/services/order_numbers'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'
import { ladderWords } from '#shared/slot_choices'
import type { Reading, Signature } from '#mail/services/mail_reading'
import { signsFor, type ParsedMail, type Retailer } from '#mail/services/retailers'

/*
| What the intake decides about a retailer's e-mail, as two ordered tables of named checks. Each
| check reads a plain context (the message's reading, its order, the retailer that should have
| signed it, what its signed text says) and answers null when the message passes it, or the
| verdict the intake records: the action and the reason an operator reads. The intake runs a
| table in order and acts on the first verdict. A check reads no database and no clock, so each
| can be tried alone; one that finds nothing of its own to check (no retailer yet, an order the
| operator chose) passes and leaves that to the check before it.
*/

export type IntakeAction = 'success' | 'refund' | 'recorded' | 'review' | 'duplicate' | 'ignored'

/** What a check refuses a message with: the action taken and the reason the console shows. */
export type Verdict = { action: IntakeAction; reason: string }

export const review = (reason: string): Verdict => ({ action: 'review', reason })

/** What the checks of an order's columns read (an `OrderRecord` is one). */
export type IntakeOrder = {
  id: number
  size: string
  sizeLadder?: string | null
  securedRetailer: string | null
  confirmationNumber: string | null
}

/** What the message is matched to, before any of its text is parsed for meaning. */
export type MatchContext<O extends IntakeOrder = IntakeOrder> = {
  reading: Reading
  /** The order the operator chose for a message of the review list; null on arrival. */
  chosen: O | null
  /** The order whose intake address is the message's one To address. */
  addressed: O | null
  /** The order the message acts on: the chosen one, else the addressed one. */
  order: O | null
  /** The retailer whose signature must vouch for the message (the order's, or its product's). */
  retailer: Retailer | null
}

/** What the retailer's signed message says, against the order it acts on. */
export type ContentContext = {
  parsed: ParsedMail
  order: IntakeOrder
  /** The id of the retailer whose signature vouches for the message. */
  retailer: string
}

export type Check<C> = (context: C) => Verdict | null

/** The retailer's signature that vouches for the message: its own DKIM, else a trusted ARC's. */
export type RetailerSignature = {
  own: Signature
  /** Vouched for by a trusted ARC sealer, not by a signature of the message itself. */
  forwarded: boolean
  /** The sealer whose word the message is accepted on (null: its own signature). */
  arcSealer: string | null
}

export function retailerSignature(reading: Reading, retailer: Retailer): RetailerSignature | null {
  const direct = reading.passing.find((item) => signsFor(retailer, item.domain))
  if (direct) return { own: direct, forwarded: false, arcSealer: null }
  const viaArc = reading.arc?.passing.find((item) => signsFor(retailer, item.domain))
  return viaArc ? { own: viaArc, forwarded: true, arcSealer: reading.arc?.sealer ?? null } : null
}

const headerName = (name: string) =>
  name === 'message-id' ? 'Message-ID' : name.replace(/(^|-)([a-z])/g, (all) => all.toUpperCase())

/** Why no signature of the retailer vouches for the message, in the operator's words. */
export function unsignedReason(reading: Reading, retailer: Retailer): string {
  const arc = reading.arc
  if (arc && reading.dkim !== 'pass') {
    if (arc.status === 'fail') {
      return `The message’s own DKIM signature does not verify and its ARC chain is broken${arc.comment ? ` (${arc.comment})` : ''}.`
    }
    if (!arc.trusted) {
      return `The message’s own DKIM signature does not verify; it was forwarded (ARC) by ${arc.untrusted.join(', ') || 'nobody'}, not a trusted ARC sealer.`
    }
    return `Forwarded by ${arc.sealer} (a trusted ARC sealer), but its first receiver saw no valid signature of ${retailer.name}.`
  }
  const partial = reading.partial.find((domain) => signsFor(retailer, domain))
  if (partial) {
    return `The signature of ${partial} covers only part of the body (l=); text after it is unsigned.`
  }
  if (reading.dkim === 'none') return 'The message is not signed (no DKIM signature).'
  if (reading.dkim === 'fail') return 'The message’s DKIM signature does not verify.'
  return `Signed by ${reading.passing.map((item) => item.domain).join(', ')}, not by ${retailer.name}.`
}

/** The header a reader relies on is covered by the signature that vouches for the message. */
function covered(context: MatchContext, header: string, words: string): Verdict | null {
  const signed = context.retailer && retailerSignature(context.reading, context.retailer)
  if (!signed || signed.own.headers.includes(header)) return null
  const signature = signed.forwarded
    ? `The ARC signature of ${context.reading.arc?.sealer ?? 'the forwarder'}`
    : 'The signature'
  return review(`${signature} does not cover the ${words}.`)
}

// ---- Who signed what: read before any of the message's text is parsed ----

/** Each header that must appear once does (a second copy above a signed one is unsigned). */
export function headersOnce({ reading }: MatchContext): Verdict | null {
  if (!reading.repeatedHeaders.length) return null
  const names = reading.repeatedHeaders.map(headerName).join(', ')
  return review(`The message has more than one ${names} header; only one copy can be signed.`)
}

/** The message names one order's intake address (or the operator chose its order). */
export function matchesAnOrder({ reading, order }: MatchContext): Verdict | null {
  if (order) return null
  return review(
    reading.toAddresses.length > 1
      ? 'The message names more than one order address.'
      : 'No order has the address this message was sent to.'
  )
}

/** A message the operator assigns is not addressed to another order. */
export function addressedToTheChosenOrder({ chosen, addressed }: MatchContext): Verdict | null {
  if (!chosen || !addressed || addressed.id === chosen.id) return null
  return review(`The message is addressed to order ${orderNumber(addressed.id)}, not to this one.`)
}

/** The order has a retailer whose signature can vouch for the message. */
export function orderHasARetailer({ retailer }: MatchContext): Verdict | null {
  return retailer ? null : review('The order’s product names no retailer.')
}

/** A signature of that retailer, over the whole body, vouches for the message (or its ARC). */
export function signedByTheRetailer({ reading, retailer }: MatchContext): Verdict | null {
  if (!retailer || retailerSignature(reading, retailer)) return null
  return review(unsignedReason(reading, retailer))
}

/** The From address is one of the retailer's own domains. */
export function sentByTheRetailer({ reading, retailer }: MatchContext): Verdict | null {
  if (!retailer || signsFor(retailer, reading.fromDomain)) return null
  return review(`Sent from ${reading.fromDomain ?? 'nobody'}, not by ${retailer.name}.`)
}

/** The message has a Message-ID: the key it acts under, once. */
export function hasAMessageId({ reading }: MatchContext): Verdict | null {
  return reading.messageId ? null : review('The message has no Message-ID.')
}

/** The retailer's signature covers the Message-ID. */
export function messageIdSigned(context: MatchContext): Verdict | null {
  return covered(context, 'message-id', 'Message-ID header')
}

/** On arrival, the retailer's signature covers the To header the order was matched by. */
export function toSigned(context: MatchContext): Verdict | null {
  return context.chosen ? null : covered(context, 'to', 'To header')
}

/** On arrival, the message was delivered to the address it names (when the door says where). */
export function deliveredToTheNamedAddress({ reading, chosen }: MatchContext): Verdict | null {
  if (chosen || !reading.envelopeAddresses.length) return null
  if (reading.envelopeAddresses.includes(reading.toAddresses[0])) return null
  return review('The message was delivered to another order’s address than the one it names.')
}

/** The checks of who signed what, in order: none of the message is parsed before they pass. */
export const AUTHENTICITY_CHECKS: readonly Check<MatchContext>[] = [
  headersOnce,
  matchesAnOrder,
  addressedToTheChosenOrder,
  orderHasARetailer,
  signedByTheRetailer,
  sentByTheRetailer,
  hasAMessageId,
  messageIdSigned,
  toSigned,
  deliveredToTheNamedAddress,
]

// ---- What the signed message says, against its order ----

function normalSize(size: string) {
  return size
    .trim()
    .toUpperCase()
    .replace(/^US\s*/, '')
}

const normalOrderNumber = (value: string) => value.trim().replace(/^#/, '').toUpperCase()

/** One of the retailer's parsers recognises the message. */
export function recognised({ parsed }: ContentContext): Verdict | null {
  return parsed.kind === 'unknown'
    ? review('No parser of the retailer recognises this message.')
    : null
}

/** The size the e-mail names is one of the buyer's ladder (another is not a success to charge). */
export function sizeOnTheLadder({ parsed, order }: ContentContext): Verdict | null {
  const ladder = slotChoiceColumns.ladderOf(order)
  const parsedSize = parsed.size ? normalSize(parsed.size) : null
  if (!parsedSize || ladder.some((size) => normalSize(size) === parsedSize)) return null
  return review(
    `The e-mail is for size ${parsed.size}; the order is for size ${ladderWords(ladder)}.`
  )
}

/**
 * The retailer's order number the e-mail names is the order's confirmation there (the winning
 * retailer's number: another retailer's order number is its own).
 */
export function retailerOrderNumberMatches({
  parsed,
  order,
  retailer,
}: ContentContext): Verdict | null {
  const sameRetailer = !order.securedRetailer || order.securedRetailer === retailer
  if (!sameRetailer || !parsed.orderNumber || !order.confirmationNumber) return null
  if (normalOrderNumber(parsed.orderNumber) === normalOrderNumber(order.confirmationNumber)) {
    return null
  }
  return review(
    `The e-mail is for the retailer’s order ${parsed.orderNumber}; this order is ${order.confirmationNumber} there.`
  )
}

/** The checks of what a signed message says, in order, once its text is parsed. */
export const CONTENT_CHECKS: readonly Check<ContentContext>[] = [
  recognised,
  sizeOnTheLadder,
  retailerOrderNumberMatches,
]

/** The first verdict of the table's checks, in order; null when the message passes them all. */
export function firstVerdict<C>(checks: readonly Check<C>[], context: C): Verdict | null {
  for (const check of checks) {
    const verdict = check(context)
    if (verdict) return verdict
  }
  return null
}
