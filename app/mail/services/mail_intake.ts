import { createHash, randomUUID } from 'node:crypto'
import { simpleParser, type AddressObject } from 'mailparser'
import { authenticate } from 'mailauth'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { mailIntakeConfig } from '#config/mail_intake'
import { cardVault } from '#core/services/card_vault'
import { opsLog } from '#core/services/ops_log'
import { clock } from '#core/services/clock'
import { sqlTime } from '#core/helpers/sql_time'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { mailIntake as intakeMetric } from '#core/services/metrics'
import { productQueries } from '#catalog/services/product_queries'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { orderOutcome, type MailOutcome } from '#release/services/order_outcome'
import { mailDnsResolver } from '#mail/services/dns_resolver'
import {
  retailerById,
  retailerOfDomain,
  signsFor,
  type MailKind,
  type ParsedMail,
  type Retailer,
} from '#mail/services/retailers'

export type IntakeDoor = 'imap' | 'smtp' | 'file' | 'console'
export type DkimResult = 'pass' | 'fail' | 'none'
export type IntakeAction = 'success' | 'refund' | 'recorded' | 'review' | 'duplicate' | 'ignored'

/** One message as the intake reports it (`mail:import --json` prints one a line). */
export type IntakeReport = {
  id: string
  messageId: string | null
  retailer: string | null
  kind: MailKind
  orderId: string | null
  dkim: DkimResult
  action: IntakeAction
  reason: string | null
}

export type Envelope = {
  /** The SMTP RCPT TO addresses, or the mailbox's Delivered-To / X-Original-To. */
  to?: string[]
  /** The connecting client's address (SMTP), for the authentication report. */
  ip?: string | null
}

type Signature = { domain: string; headers: string[] }

/**
 * What the ARC chain of a forwarded message says (only read when MAIL_INTAKE_TRUSTED_ARC_SEALERS
 * names a sealer): whether the chain verifies, who sealed it, and the retailer signatures the
 * first receiver (i=1) saw pass, each with the headers the latest ARC-Message-Signature covers.
 */
type ArcReading = {
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

/** A claim on a message older than this is a crashed reader's: taken again. */
const STALE_CLAIM_MS = 5 * 60 * 1000

type Reading = {
  messageId: string | null
  subject: string
  sender: string | null
  fromDomain: string | null
  /** Intake addresses of the signed headers (To, Cc). */
  headerAddresses: string[]
  /** Intake addresses the message was delivered to (envelope, Delivered-To). */
  envelopeAddresses: string[]
  text: string
  dkim: DkimResult
  /** The domains whose signatures verified (`d=`), each with the headers it signed. */
  passing: Signature[]
  /** The ARC chain, when the message has one and ARC sealers are trusted. */
  arc: ArcReading | null
  /** The first signing domain, passing or not (for the record). */
  signingDomain: string | null
}

const sha256 = (value: Buffer | string) => createHash('sha256').update(value).digest('hex')

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

/**
 * The mail intake: one path for the three doors (the IMAP reader of the catch-all mailbox, the
 * inbound SMTP listener, `dropslot mail:import`). A message is parsed (`mailparser`), its DKIM
 * signatures verified (`mailauth`, through the one DNS resolver), matched to the order its
 * signed To names, classified by its retailer's parser and then, only when the signature is the
 * product's retailer's own, acted on through the one outcome path: a confirmation succeeds the
 * order (fee once), a cancellation refunds it, a shipment goes on the timeline. Anything else goes
 * to the console's review list and moves nothing. Each message acts once (`message_key`: the
 * signed Message-ID, else the raw message's hash), whichever door reads it and how often.
 */
export class MailIntake {
  /** Reads one message through the whole path and says what it did. */
  async receive(raw: Buffer, door: IntakeDoor, envelope: Envelope = {}): Promise<IntakeReport> {
    const reading = await this.read(raw, envelope)
    const hash = sha256(raw)
    opsLog('mail.received', {
      door,
      sha256: hash.slice(0, 16),
      dkim: reading.dkim,
      signedBy: reading.passing.map((item) => item.domain),
      arc: reading.arc ? `${reading.arc.status}:${reading.arc.sealer}` : undefined,
    })
    // The same signed message is one message whichever door brings it (their Received lines
    // differ); a signature of another domain over the same Message-ID is another message.
    // Forwarded mail a trusted ARC sealer vouches for is the same message as its direct copy.
    const signed = reading.passing.length ? reading.passing : (reading.arc?.passing ?? [])
    const key =
      signed.length && reading.messageId
        ? `sig:${sha256(`${signed.map((item) => item.domain).sort()}|${reading.messageId}`)}`
        : `raw:${hash}`
    const claim = await this.claim(key, raw, hash, door, reading)
    if (claim.duplicate) {
      intakeMetric.inc({ action: 'duplicate' })
      return { ...claim.report, action: 'duplicate', reason: 'This message was read before.' }
    }
    return this.decide(claim.id, reading)
  }

  /**
   * A message of the review list tried again against an order the operator chose: the same
   * checks as on arrival (a valid signature of the order's retailer is still required).
   */
  async assign(publicId: string, order: OrderRecord): Promise<IntakeReport> {
    const row = await db.from('mail_messages').where('public_id', publicId).first()
    if (!row) throw new Error('no such message')
    if (!row.raw_sealed) {
      return this.finish(row.id, {
        action: 'review',
        reason: 'The message was deleted after the retention period; it cannot be read again.',
      })
    }
    const raw = Buffer.from(cardVault.open<string>(row.raw_sealed), 'base64')
    const reading = await this.read(raw, {})
    return this.decide(row.id, reading, order)
  }

  private async read(raw: Buffer, envelope: Envelope): Promise<Reading> {
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
    const passing = results
      .filter((item: any) => item.status?.result === 'pass' && item.signingDomain)
      .map((item: any) => ({
        domain: String(item.signingDomain).toLowerCase(),
        headers: headerList(item.signingHeaders?.keys),
      }))
    const signed = results.filter((item: any) => item.status?.result !== 'none')
    return {
      messageId: parsed.messageId?.slice(0, 255) ?? null,
      subject: (parsed.subject ?? '').slice(0, 255),
      sender,
      fromDomain: domainOf(sender),
      headerAddresses: intake([...addressesOf(parsed.to), ...addressesOf(parsed.cc)]),
      envelopeAddresses: intake([
        ...(envelope.to ?? []).map((to) => to.toLowerCase()),
        ...delivered,
      ]),
      text: parsed.text ?? (typeof parsed.html === 'string' ? parsed.html : ''),
      dkim: passing.length ? 'pass' : signed.length ? 'fail' : 'none',
      passing,
      arc: trustedSealers.length ? arcOf(auth.arc, trustedSealers) : null,
      signingDomain: passing[0]?.domain ?? (signed[0] as any)?.signingDomain?.toLowerCase() ?? null,
    }
  }

  /** The message's row, taken by this reader; or the row of the same message read before. */
  private async claim(
    key: string,
    raw: Buffer,
    hash: string,
    door: IntakeDoor,
    reading: Reading
  ): Promise<{ duplicate: false; id: number } | { duplicate: true; report: IntakeReport }> {
    const publicId = randomUUID()
    try {
      const [id] = await db.table('mail_messages').insert({
        public_id: publicId,
        message_key: key,
        message_id: reading.messageId,
        sha256: hash,
        door,
        sender: reading.sender?.slice(0, 255) ?? null,
        recipient: (reading.headerAddresses[0] ?? reading.envelopeAddresses[0] ?? null)?.slice(
          0,
          255
        ),
        subject: reading.subject || null,
        kind: 'unknown',
        dkim: reading.dkim,
        dkim_domain: reading.signingDomain?.slice(0, 255) ?? null,
        action: null,
        raw_sealed: cardVault.seal(raw.toString('base64')),
        claimed_at: sqlTime(),
        received_at: sqlTime(),
        created_at: sqlTime(),
        updated_at: sqlTime(),
      })
      return { duplicate: false, id: Number(id) }
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    const row = await db.from('mail_messages').where('message_key', key).first()
    const stale = sqlTime(new Date(clock.nowMs() - STALE_CLAIM_MS))
    if (row.action === null) {
      // A reader that crashed before it decided: this one finishes it (the money is idempotent).
      const taken = await db
        .from('mail_messages')
        .where('id', row.id)
        .whereNull('action')
        .where((query) => query.whereNull('claimed_at').orWhere('claimed_at', '<', stale))
        .update({ claimed_at: sqlTime() })
      if (affectedRows(taken) === 1) return { duplicate: false, id: Number(row.id) }
    }
    return { duplicate: true, report: await this.reportOf(Number(row.id)) }
  }

  /** Matches, checks and acts; the message's row is updated with what it did. */
  private async decide(id: number, reading: Reading, chosen?: OrderRecord): Promise<IntakeReport> {
    const order =
      chosen ??
      (reading.headerAddresses.length === 1
        ? await orderMailAddress.findByAddress(reading.headerAddresses[0])
        : null)
    const product = order ? await productQueries.find(order.productId) : null
    const productRetailer = retailerById(product?.retailer)
    const signer = [...reading.passing, ...(reading.arc?.passing ?? [])]
      .map((item) => retailerOfDomain(item.domain))
      .find(Boolean)
    const parser: Retailer | null =
      signer ?? retailerOfDomain(reading.fromDomain) ?? productRetailer ?? null
    const parsed: ParsedMail = parser
      ? parser.parse({ subject: reading.subject, text: reading.text })
      : {
          kind: 'unknown',
          orderNumber: null,
          item: null,
          size: null,
          totalCents: null,
          trackingNumber: null,
        }
    await db
      .from('mail_messages')
      .where('id', id)
      .update({
        order_id: order?.id ?? null,
        retailer: parser?.id ?? null,
        kind: parsed.kind,
        retailer_order_number: parsed.orderNumber?.slice(0, 120) ?? null,
        item: parsed.item,
        size: parsed.size?.slice(0, 32) ?? null,
        total_cents: parsed.totalCents,
        tracking_number: parsed.trackingNumber?.slice(0, 120) ?? null,
        updated_at: sqlTime(),
      })

    const checked = this.refusal(reading, order, productRetailer, parsed, Boolean(chosen))
    if ('action' in checked) return this.finish(id, checked)
    // Accepted on a trusted sealer's word: the message's own DKIM result stays as it is, the
    // reason says so (`arc:<sealer>`).
    const via = checked.arcSealer
      ? `arc:${checked.arcSealer} (forwarded; ${checked.domain}’s signature verified by the first receiver)`
      : null

    const evidence = { messageId: reading.messageId!, retailerOrderNumber: parsed.orderNumber }
    let outcome: MailOutcome
    if (parsed.kind === 'confirmation' && mailIntakeConfig().successEvidence === 'bot') {
      outcome = { action: 'recorded', note: 'SUCCESS_EVIDENCE=bot: the bot’s result decides.' }
    } else if (parsed.kind === 'confirmation') {
      outcome = await orderOutcome.confirmByRetailer(order!.publicId, evidence)
    } else if (parsed.kind === 'cancelled') {
      outcome = await orderOutcome.cancelByRetailer(
        order!.publicId,
        evidence,
        mailIntakeConfig().refundOnCancelDays
      )
    } else {
      await orderTimeline.append({
        orderId: order!.id,
        kind: 'mail_shipped',
        from: order!.status,
        to: order!.status,
        source: 'mail',
        actor: `mail:${reading.messageId}`.slice(0, 250),
        note: parsed.trackingNumber,
        meta: { retailerOrderNumber: parsed.orderNumber, trackingNumber: parsed.trackingNumber },
      })
      outcome = { action: 'recorded', note: 'Shipped: on the timeline.' }
    }
    const reason =
      outcome.action === 'review'
        ? outcome.reason
        : outcome.action === 'recorded'
          ? outcome.note
          : outcome.action === 'success' && outcome.corrected
            ? 'The bot reported a failure; the retailer confirmed: corrected to success.'
            : outcome.action === 'refund' && !outcome.refunded
              ? 'Cancelled; the refund did not go through yet.'
              : null
    return this.finish(id, {
      action: outcome.action,
      reason: via ? [via, reason].filter(Boolean).join('; ') : reason,
    })
  }

  /** Why a message may not move money (null: it may). */
  private refusal(
    reading: Reading,
    order: OrderRecord | null,
    productRetailer: Retailer | null,
    parsed: ParsedMail,
    chosen: boolean
  ): { action: IntakeAction; reason: string } | { domain: string; arcSealer: string | null } {
    const review = (reason: string) => ({ action: 'review' as const, reason })
    if (!order) {
      return review(
        reading.headerAddresses.length > 1
          ? 'The message names more than one order address.'
          : 'No order has the address this message was sent to.'
      )
    }
    const direct = productRetailer
      ? reading.passing.find((item) => signsFor(productRetailer, item.domain))
      : undefined
    const viaArc =
      productRetailer && !direct
        ? reading.arc?.passing.find((item) => signsFor(productRetailer, item.domain))
        : undefined
    if (!direct && !viaArc) {
      const arc = reading.arc
      if (arc && reading.dkim !== 'pass') {
        if (arc.status === 'fail') {
          return review(
            `The message’s own DKIM signature does not verify and its ARC chain is broken${arc.comment ? ` (${arc.comment})` : ''}.`
          )
        }
        if (!arc.trusted) {
          return review(
            `The message’s own DKIM signature does not verify; it was forwarded (ARC) by ${arc.untrusted.join(', ') || 'nobody'}, not a trusted ARC sealer.`
          )
        }
        if (productRetailer) {
          return review(
            `Forwarded by ${arc.sealer} (a trusted ARC sealer), but its first receiver saw no valid signature of ${productRetailer.name}.`
          )
        }
      }
      if (reading.dkim === 'none') return review('The message is not signed (no DKIM signature).')
      if (reading.dkim === 'fail') return review('The message’s DKIM signature does not verify.')
      if (!productRetailer) return review('The order’s product names no retailer.')
      return review(
        `Signed by ${reading.passing.map((item) => item.domain).join(', ')}, not by ${productRetailer.name}.`
      )
    }
    const own = (direct ?? viaArc)!
    if (!productRetailer) return review('The order’s product names no retailer.')
    if (!signsFor(productRetailer, reading.fromDomain)) {
      return review(`Sent from ${reading.fromDomain ?? 'nobody'}, not by ${productRetailer.name}.`)
    }
    if (!reading.messageId) return review('The message has no Message-ID.')
    if (!chosen) {
      if (!own.headers.includes('to')) {
        return review(
          direct
            ? 'The signature does not cover the To header.'
            : `The ARC signature of ${reading.arc?.sealer} does not cover the To header.`
        )
      }
      const address = reading.headerAddresses[0]
      if (reading.envelopeAddresses.length && !reading.envelopeAddresses.includes(address)) {
        return review('The message was delivered to another order’s address than the one it names.')
      }
    }
    if (parsed.kind === 'unknown')
      return review('No parser of the retailer recognises this message.')
    if (parsed.size && order.size && normalSize(parsed.size) !== normalSize(order.size)) {
      return review(`The e-mail is for size ${parsed.size}; the order is for size ${order.size}.`)
    }
    return { domain: own.domain, arcSealer: direct ? null : (reading.arc?.sealer ?? null) }
  }

  private async finish(
    id: number,
    result: { action: IntakeAction; reason: string | null }
  ): Promise<IntakeReport> {
    await db
      .from('mail_messages')
      .where('id', id)
      .update({
        action: result.action,
        reason: result.reason?.slice(0, 255) ?? null,
        // A message in review moved nothing: it keeps no claim on its key, so a copy that can
        // act (delivered to the right address, or once its order is ready) still does.
        ...(result.action === 'review' ? { message_key: `review:${id}` } : {}),
        updated_at: sqlTime(),
      })
    intakeMetric.inc({ action: result.action })
    const report = await this.reportOf(id)
    if (result.action === 'review' || result.action === 'ignored') {
      opsLog('mail.rejected', {
        mail: report.id,
        order: report.orderId,
        kind: report.kind,
        dkim: report.dkim,
        reason: report.reason,
      })
    } else {
      opsLog('mail.matched', {
        mail: report.id,
        order: report.orderId,
        kind: report.kind,
        action: report.action,
      })
    }
    return report
  }

  async reportOf(id: number): Promise<IntakeReport> {
    const row = await db.from('mail_messages').where('id', id).first()
    const order = row.order_id ? await orderQueries.find(Number(row.order_id)) : null
    return {
      id: row.public_id,
      messageId: row.message_id,
      retailer: row.retailer,
      kind: row.kind,
      orderId: order?.publicId ?? null,
      dkim: row.dkim,
      action: row.action ?? 'review',
      reason: row.reason,
    }
  }

  /**
   * Deletes the raw messages older than MAIL_RETENTION_DAYS; their hash, sender, DKIM result and
   * what they did stay. Returns how many were deleted.
   */
  async purgeRaw(now = DateTime.fromMillis(clock.nowMs())): Promise<number> {
    const before = sqlTime(now.minus({ days: mailIntakeConfig().retentionDays }).toJSDate())
    const purged = await db
      .from('mail_messages')
      .whereNotNull('raw_sealed')
      .where('received_at', '<', before)
      .update({ raw_sealed: null, purged_at: sqlTime() })
    return affectedRows(purged)
  }
}

function normalSize(size: string) {
  return size
    .trim()
    .toUpperCase()
    .replace(/^US\s*/, '')
}

export const mailIntake = new MailIntake()
