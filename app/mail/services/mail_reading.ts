import { simpleParser, type AddressObject } from 'mailparser'
import { authenticate } from 'mailauth'
import { mailIntakeConfig } from '#config/mail_intake'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { mailDnsResolver } from '#mail/services/dns_resolver'

/*
| Reading a message for the intake: what it says and how much of it is signed. DKIM (and an
| ARC-Message-Signature) covers the bottom-most copy of each header it names and, with `l=`,
| perhaps only part of the body. So a message may count only as far as it is signed: a header a
| reader relies on must appear once and be covered, and a signature that leaves body bytes out
| does not pass.
*/

export type DkimResult = 'pass' | 'fail' | 'none'

/** A signature that verified over the whole body: its domain (`d=`) and the headers it covers. */
export type Signature = { domain: string; headers: string[] }

/**
 * What the ARC chain of a forwarded message says (only read when MAIL_INTAKE_TRUSTED_ARC_SEALERS
 * names a sealer): whether the chain verifies, who sealed it, and the retailer signatures the
 * first receiver (i=1) saw pass, each with the headers the latest ARC-Message-Signature covers.
 */
export type ArcReading = {
  status: 'pass' | 'fail'
  /** The latest sealer, the one that handed the message to us. */
  sealer: string | null
  /** Every seal of the chain is by a trusted sealer. */
  trusted: boolean
  /** The sealers of the chain that are not trusted (an untrusted hop taints the whole chain). */
  untrusted: string[]
  /** The domains whose DKIM the first receiver reported as `pass` (when the chain is trusted). */
  passing: Signature[]
  comment: string | null
}

export type Reading = {
  messageId: string | null
  subject: string
  sender: string | null
  fromDomain: string | null
  /** Intake addresses of the To header (never Cc: only To is matched, and only when signed). */
  toAddresses: string[]
  /** Intake addresses the message was delivered to (envelope, Delivered-To). */
  envelopeAddresses: string[]
  /** Headers that must appear once but appear more often (lower case). */
  repeatedHeaders: string[]
  text: string
  dkim: DkimResult
  /** The domains whose signatures verified over the whole body, each with the headers it signed. */
  passing: Signature[]
  /** Domains whose signature verified over part of the body only (`l=` shorter than the body). */
  partial: string[]
  /** The ARC chain, when the message has one and ARC sealers are trusted. */
  arc: ArcReading | null
  /** The first signing domain, passing or not (for the record). */
  signingDomain: string | null
}

export type Envelope = {
  /** The SMTP RCPT TO addresses, or the mailbox's Delivered-To / X-Original-To. */
  to?: string[]
  /** The connecting client's address (SMTP), for the authentication report. */
  ip?: string | null
}

/**
 * Headers a message has once (RFC 5322 3.6, MIME): a second copy above a signed one is how an
 * unsigned word would be slipped past the signature, so a message with two goes to review.
 */
export const SINGLE_HEADERS = [
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
] as const

/** The most of a message's header block read for counting (real ones are a few KB). */
const MAX_HEADER_BYTES = 256 * 1024

/** Lower-case names of the SINGLE_HEADERS that the raw header block holds more than once. */
export function repeatedHeaders(raw: Buffer): string[] {
  const head = raw.subarray(0, MAX_HEADER_BYTES).toString('latin1')
  const end = head.search(/\r?\n\r?\n/)
  const block = end === -1 ? head : head.slice(0, end)
  const counts = new Map<string, number>()
  for (const line of block.split('\n')) {
    // A folded line (starting with a space or tab) continues the header above it.
    if (line === '' || line[0] === ' ' || line[0] === '\t') continue
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return SINGLE_HEADERS.filter((name) => (counts.get(name) ?? 0) > 1)
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : []
  return list.flatMap((item) => item.value.map((entry) => entry.address?.toLowerCase() ?? ''))
}

const headerList = (value: unknown) =>
  String(value ?? '')
    .toLowerCase()
    .split(/[:\s]+/)
    .filter(Boolean)

const isSealer = (domain: string, trusted: string[]) =>
  trusted.some((item) => domain === item || domain.endsWith(`.${item}`))

/** A signature whose `l=` left part of the body out (mailauth still calls it a pass). */
const coversPartOfBody = (result: any) =>
  Boolean(result?.status?.underSized) ||
  (result?.canonBodyLengthLimited === true &&
    Number(result.canonBodyLengthTotal) > Number(result.canonBodyLength))

/**
 * Reads mailauth's ARC result. Only a chain that verifies and whose every seal is by a trusted
 * sealer vouches for anything: then the first receiver's ARC-Authentication-Results (i=1) stand
 * for the DKIM signatures it saw, over the headers the latest ARC-Message-Signature signed.
 */
function arcOf(result: any, trusted: string[]): ArcReading | null {
  if (!result || result.status?.result === 'none') return null
  const chain: any[] = Array.isArray(result.chain) ? result.chain : []
  const sealers = chain.map((link) =>
    String(link['arc-seal']?.parsed?.d?.value ?? '')
      .trim()
      .toLowerCase()
  )
  const sealer = sealers.at(-1) || null
  const comment = result.status?.comment ? String(result.status.comment) : null
  if (result.status?.result !== 'pass' || result.signature?.status?.result !== 'pass') {
    return { status: 'fail', sealer, trusted: false, untrusted: [], passing: [], comment }
  }
  if (coversPartOfBody(result.signature)) {
    const partly = 'the ARC message signature covers only part of the body'
    return { status: 'fail', sealer, trusted: false, untrusted: [], passing: [], comment: partly }
  }
  const untrusted = [...new Set(sealers.filter((item) => !isSealer(item, trusted)))]
  const isTrusted = sealers.length > 0 && untrusted.length === 0
  // mailauth rewrites the latest entry's parsed results into `authenticationResults` (`value`
  // becomes `result`): with one hop, that entry is the first.
  const firstHop =
    chain.length === 1
      ? result.authenticationResults
      : chain[0]?.['arc-authentication-results']?.parsed
  const headers = headerList(result.signature?.signingHeaders?.keys)
  const passing: Signature[] = []
  for (const entry of Array.isArray(firstHop?.dkim) ? firstHop.dkim : []) {
    if (String(entry?.value ?? entry?.result ?? '').toLowerCase() !== 'pass') continue
    // `header.d`, or the domain of `header.i` (mailauth and Gmail write `header.i=@kith.com`).
    const domain =
      entry.header?.d ??
      (typeof entry.header?.i === 'string' ? entry.header.i.split('@').pop() : null)
    if (domain) passing.push({ domain: String(domain).trim().toLowerCase(), headers })
  }
  return {
    status: 'pass',
    sealer,
    trusted: isTrusted,
    untrusted,
    passing: isTrusted ? passing : [],
    comment,
  }
}

function domainOf(address: string | null | undefined) {
  const at = address?.lastIndexOf('@') ?? -1
  return address && at > 0 ? address.slice(at + 1).toLowerCase() : null
}

/** Parses the message (`mailparser`) and verifies its signatures (`mailauth`, one DNS resolver). */
export async function readMessage(raw: Buffer, envelope: Envelope): Promise<Reading> {
  const parsed = await simpleParser(raw, { skipHtmlToText: false, skipImageLinks: true })
  const sender = parsed.from?.value[0]?.address?.toLowerCase() ?? null
  const delivered = ['delivered-to', 'x-original-to'].flatMap((name) => {
    const value = parsed.headers.get(name)
    return typeof value === 'string' ? [value.replace(/[<>]/g, '').trim().toLowerCase()] : []
  })
  const intake = (list: string[]) => [
    ...new Set(list.filter((item) => orderMailAddress.isIntakeAddress(item))),
  ]
  const trustedSealers = mailIntakeConfig().trustedArcSealers
  const auth = await authenticate(raw, {
    resolver: mailDnsResolver,
    ip: envelope.ip ?? '127.0.0.1',
    helo: 'intake',
    sender: sender ?? undefined,
    mta: 'dropslot',
    disableDmarc: true,
    disableBimi: true,
    disableArc: trustedSealers.length === 0,
  })
  const results = auth.dkim?.results ?? []
  const verified = results.filter(
    (item: any) => item.status?.result === 'pass' && item.signingDomain
  )
  const passing = verified
    .filter((item: any) => !coversPartOfBody(item))
    .map((item: any) => ({
      domain: String(item.signingDomain).toLowerCase(),
      headers: headerList(item.signingHeaders?.keys),
    }))
  const partial = verified
    .filter((item: any) => coversPartOfBody(item))
    .map((item: any) => String(item.signingDomain).toLowerCase())
  const signed = results.filter((item: any) => item.status?.result !== 'none')
  return {
    messageId: parsed.messageId?.slice(0, 255) ?? null,
    subject: (parsed.subject ?? '').slice(0, 255),
    sender,
    fromDomain: domainOf(sender),
    toAddresses: intake(addressesOf(parsed.to)),
    envelopeAddresses: intake([...(envelope.to ?? []).map((to) => to.toLowerCase()), ...delivered]),
    repeatedHeaders: repeatedHeaders(raw),
    text: parsed.text ?? (typeof parsed.html === 'string' ? parsed.html : ''),
    dkim: passing.length ? 'pass' : signed.length ? 'fail' : 'none',
    passing,
    partial,
    arc: trustedSealers.length ? arcOf(auth.arc, trustedSealers) : null,
    signingDomain: passing[0]?.domain ?? (signed[0] as any)?.signingDomain?.toLowerCase() ?? null,
  }
}

/** The signatures that vouch for the message: its own, else a trusted ARC chain's. */
export function vouching(reading: Reading): Signature[] {
  return reading.passing.length ? reading.passing : (reading.arc?.passing ?? [])
}

/** The Message-ID, when a signature that vouches for the message covers it. */
export function signedMessageId(reading: Reading): string | null {
  const covered = vouching(reading).some((item) => item.headers.includes('message-id'))
  return covered ? reading.messageId : null
}
