import { createHash, randomUUID } from 'node:crypto'
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
import { orderNumber } from '#orders/services/order_numbers'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { releaseTries } from '#release/services/release_tries'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'
import { ladderWords } from '#shared/slot_choices'
import { mailEvidence } from '#mail/services/mail_evidence'
import { retailerOutcomes, type MailOutcome } from '#mail/services/retailer_outcomes'
import {
  readMessage,
  signedMessageId,
  vouching,
  type DkimResult,
  type Envelope,
  type Reading,
  type Signature,
} from '#mail/services/mail_reading'
import {
  retailerById,
  retailerOfDomain,
  signsFor,
  type MailKind,
  type ParsedMail,
  type Retailer,
} from '#mail/services/retailers'

export type { DkimResult, Envelope } from '#mail/services/mail_reading'
export type IntakeDoor = 'imap' | 'smtp' | 'file' | 'console'
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

/** The largest message the intake reads, whichever door brings it (retailers' are far smaller). */
export const MAX_MESSAGE_BYTES = 5 * 1024 * 1024

/** A message over MAX_MESSAGE_BYTES: refused before anything of it is read. */
export class MessageTooLarge extends Error {
  constructor(bytes: number) {
    super(`The message is ${bytes} bytes; the intake reads at most ${MAX_MESSAGE_BYTES}.`)
  }
}

/** A claim on a message older than this is a crashed reader's: taken again. */
const STALE_CLAIM_MS = 5 * 60 * 1000

const sha256 = (value: Buffer | string) => createHash('sha256').update(value).digest('hex')

/**
 * The key a message acts under, once ever: the same signed message is one message whichever door
 * brings it (their Received lines differ); a signature of another domain over the same
 * Message-ID is another message. Forwarded mail a trusted ARC sealer vouches for is the same
 * message as its direct copy. Without a signed Message-ID, the raw message's hash.
 */
function messageKey(reading: Reading, hash: string) {
  const messageId = signedMessageId(reading)
  return messageId
    ? `sig:${sha256(
        `${vouching(reading)
          .map((item) => item.domain)
          .sort()}|${messageId}`
      )}`
    : `raw:${hash}`
}

const normalOrderNumber = (value: string) => value.trim().replace(/^#/, '').toUpperCase()

type Verdict = { action: IntakeAction; reason: string }
const review = (reason: string): Verdict => ({ action: 'review', reason })

/**
 * The mail intake: one path for the three doors (the IMAP reader of the catch-all mailbox, the
 * inbound SMTP listener, `dropslot mail:import`). A message is read (`mail_reading.ts`: parsed,
 * its DKIM signatures verified), matched to the order its signed To names, authenticated as its
 * product's retailer's own, and only then classified by that retailer's parser from its signed
 * Subject and signed body, and acted on through the one outcome path: a confirmation succeeds
 * the order (fee once), a cancellation refunds it, a shipment goes on the timeline. Anything else
 * goes to the console's review list and moves nothing. Each message acts once (`message_key`:
 * the signed Message-ID, else the raw message's hash), whichever door reads it and how often.
 */
export class MailIntake {
  /** Reads one message through the whole path and says what it did. */
  async receive(raw: Buffer, door: IntakeDoor, envelope: Envelope = {}): Promise<IntakeReport> {
    if (raw.length > MAX_MESSAGE_BYTES) throw new MessageTooLarge(raw.length)
    const reading = await readMessage(raw, envelope)
    const hash = sha256(raw)
    opsLog('mail.received', {
      door,
      sha256: hash.slice(0, 16),
      dkim: reading.dkim,
      signedBy: reading.passing.map((item) => item.domain),
      arc: reading.arc ? `${reading.arc.status}:${reading.arc.sealer}` : undefined,
    })
    const claim = await this.claim(messageKey(reading, hash), raw, hash, door, reading)
    if (claim.duplicate) {
      intakeMetric.inc({ action: 'duplicate' })
      return { ...claim.report, action: 'duplicate', reason: 'This message was read before.' }
    }
    return this.decide(claim.id, reading)
  }

  /**
   * A message of the review list tried against an order the operator chose (the caller has
   * taken it from review): the same checks as on arrival, so a valid signature of the order's
   * retailer is still required, and a message that acted on an order before never acts again.
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
    const reading = await readMessage(raw, {})
    try {
      await db
        .from('mail_messages')
        .where('id', row.id)
        .update({ message_key: messageKey(reading, sha256(raw)) })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      return this.finish(row.id, {
        action: 'duplicate',
        reason: 'A copy of this message was read before and acted; it acts once.',
      })
    }
    return this.decide(row.id, reading, order)
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
        recipient: (reading.toAddresses[0] ?? reading.envelopeAddresses[0] ?? null)?.slice(0, 255),
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

  /**
   * Matches, authenticates, then parses and acts; the message's row is updated with what it
   * did. Nothing of the message is parsed for meaning before its retailer's signature is found
   * to cover what is read.
   */
  private async decide(id: number, reading: Reading, chosen?: OrderRecord): Promise<IntakeReport> {
    const addressed =
      reading.toAddresses.length === 1
        ? await orderMailAddress.findByAddress(reading.toAddresses[0])
        : null
    const order = chosen ?? addressed
    const product = order ? await productQueries.find(order.productId) : null
    // The retailers the order was sent to (each a try), else its product's own: only one of
    // them vouches for a message about it.
    const sentTo = order ? await releaseTries.sentTo(order.id) : []
    const candidates = (sentTo.length ? sentTo : [product?.retailer])
      .map((key) => retailerById(key))
      .filter((retailer): retailer is Retailer => Boolean(retailer))
    const productRetailer =
      candidates.find((retailer) =>
        [...reading.passing, ...(reading.arc?.passing ?? [])].some((item) =>
          signsFor(retailer, item.domain)
        )
      ) ??
      candidates[0] ??
      null
    const signer = [...reading.passing, ...(reading.arc?.passing ?? [])]
      .map((item) => retailerOfDomain(item.domain))
      .find(Boolean)
    const named = productRetailer ?? signer ?? retailerOfDomain(reading.fromDomain)
    await db
      .from('mail_messages')
      .where('id', id)
      .update({ order_id: order?.id ?? null, retailer: named?.id ?? null, updated_at: sqlTime() })

    const checked = this.authenticity(reading, order, productRetailer, { chosen, addressed })
    if ('action' in checked) return this.finish(id, checked)

    const parsed = productRetailer!.parse({
      subject: checked.own.headers.includes('subject') ? reading.subject : '',
      text: reading.text,
    })
    await db
      .from('mail_messages')
      .where('id', id)
      .update({
        kind: parsed.kind,
        retailer_order_number: parsed.orderNumber?.slice(0, 120) ?? null,
        item: parsed.item,
        size: parsed.size?.slice(0, 32) ?? null,
        total_cents: parsed.totalCents,
        tracking_number: parsed.trackingNumber?.slice(0, 120) ?? null,
        updated_at: sqlTime(),
      })
    const content = this.contentRefusal(parsed, order!, productRetailer!.id)
    if (content) return this.finish(id, content)
    // Accepted on a trusted sealer's word: the message's own DKIM result stays as it is, the
    // reason says so (`arc:<sealer>`).
    const via = checked.arcSealer
      ? `arc:${checked.arcSealer} (forwarded; ${checked.own.domain}’s signature verified by the first receiver)`
      : null
    const outcome = await this.act(order!, parsed, reading.messageId!, productRetailer!.id)
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

  /** What an authenticated, parsed message does, through the one outcome path. */
  private async act(order: OrderRecord, parsed: ParsedMail, messageId: string, retailer: string) {
    const evidence = {
      messageId,
      retailerOrderNumber: parsed.orderNumber,
      retailer,
      size: parsed.size,
      totalCents: parsed.totalCents,
    }
    if (parsed.kind === 'confirmation' && !mailEvidence.confirmationsCount()) {
      return {
        action: 'recorded',
        note: 'SUCCESS_EVIDENCE=bot: the bot’s result decides.',
      } as const
    }
    if (parsed.kind === 'confirmation') {
      return retailerOutcomes.confirm(order.publicId, evidence)
    }
    if (parsed.kind === 'cancelled') {
      return retailerOutcomes.cancel(
        order.publicId,
        evidence,
        mailIntakeConfig().refundOnCancelDays
      )
    }
    await orderTimeline.append({
      orderId: order.id,
      kind: 'mail_shipped',
      from: order.status,
      to: order.status,
      source: 'mail',
      actor: `mail:${messageId}`.slice(0, 250),
      note: parsed.trackingNumber,
      meta: { retailerOrderNumber: parsed.orderNumber, trackingNumber: parsed.trackingNumber },
    })
    return { action: 'recorded', note: 'Shipped: on the timeline.' } satisfies MailOutcome
  }

  /**
   * Why a message may not move money, from who signed what (null fields: it may, with the
   * signature that vouches for it). Read before any of its text is parsed.
   */
  private authenticity(
    reading: Reading,
    order: OrderRecord | null,
    productRetailer: Retailer | null,
    match: { chosen?: OrderRecord; addressed: OrderRecord | null }
  ): Verdict | { own: Signature; arcSealer: string | null } {
    if (reading.repeatedHeaders.length) {
      const names = reading.repeatedHeaders.map(headerName).join(', ')
      return review(`The message has more than one ${names} header; only one copy can be signed.`)
    }
    if (!order) {
      return review(
        reading.toAddresses.length > 1
          ? 'The message names more than one order address.'
          : 'No order has the address this message was sent to.'
      )
    }
    if (match.chosen && match.addressed && match.addressed.id !== match.chosen.id) {
      return review(
        `The message is addressed to order ${orderNumber(match.addressed.id)}, not to this one.`
      )
    }
    if (!productRetailer) return review('The order’s product names no retailer.')
    const direct = reading.passing.find((item) => signsFor(productRetailer, item.domain))
    const viaArc = direct
      ? undefined
      : reading.arc?.passing.find((item) => signsFor(productRetailer, item.domain))
    const own = direct ?? viaArc
    if (!own) return review(this.unsignedReason(reading, productRetailer))
    if (!signsFor(productRetailer, reading.fromDomain)) {
      return review(`Sent from ${reading.fromDomain ?? 'nobody'}, not by ${productRetailer.name}.`)
    }
    const signature = direct
      ? 'The signature'
      : `The ARC signature of ${reading.arc?.sealer ?? 'the forwarder'}`
    if (!reading.messageId) return review('The message has no Message-ID.')
    if (!own.headers.includes('message-id')) {
      return review(`${signature} does not cover the Message-ID header.`)
    }
    if (!match.chosen) {
      if (!own.headers.includes('to')) {
        return review(`${signature} does not cover the To header.`)
      }
      const address = reading.toAddresses[0]
      if (reading.envelopeAddresses.length && !reading.envelopeAddresses.includes(address)) {
        return review('The message was delivered to another order’s address than the one it names.')
      }
    }
    return { own, arcSealer: direct ? null : (reading.arc?.sealer ?? null) }
  }

  /** Why no signature of the product's retailer vouches for the message, in the operator's words. */
  private unsignedReason(reading: Reading, retailer: Retailer): string {
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

  /** Why what a signed message says does not fit its order (null: it fits). */
  private contentRefusal(parsed: ParsedMail, order: OrderRecord, retailer: string): Verdict | null {
    if (parsed.kind === 'unknown')
      return review('No parser of the retailer recognises this message.')
    // Any size of the buyer's ladder is theirs; another is not a success to charge a fee on.
    const ladder = slotChoiceColumns.ladderOf(order)
    const parsedSize = parsed.size ? normalSize(parsed.size) : null
    if (parsedSize && !ladder.some((size) => normalSize(size) === parsedSize)) {
      return review(
        `The e-mail is for size ${parsed.size}; the order is for size ${ladderWords(ladder)}.`
      )
    }
    // The confirmation number is the winning retailer's: another retailer's is its own.
    const sameRetailer = !order.securedRetailer || order.securedRetailer === retailer
    if (
      sameRetailer &&
      parsed.orderNumber &&
      order.confirmationNumber &&
      normalOrderNumber(parsed.orderNumber) !== normalOrderNumber(order.confirmationNumber)
    ) {
      return review(
        `The e-mail is for the retailer’s order ${parsed.orderNumber}; this order is ${order.confirmationNumber} there.`
      )
    }
    return null
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

const headerName = (name: string) =>
  name === 'message-id' ? 'Message-ID' : name.replace(/(^|-)([a-z])/g, (all) => all.toUpperCase())

function normalSize(size: string) {
  return size
    .trim()
    .toUpperCase()
    .replace(/^US\s*/, '')
}

export const mailIntake = new MailIntake()
