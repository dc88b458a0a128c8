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
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'
import { orderTimeline } from '#orders/services/order_timeline'
import { releaseTries } from '#release/services/release_tries'
import { mailEvidence } from '#mail/services/mail_evidence'
import { retailerOutcomes, type MailOutcome } from '#mail/services/retailer_outcomes'
import {
  AUTHENTICITY_CHECKS,
  CONTENT_CHECKS,
  firstVerdict,
  retailerSignature,
  type IntakeAction,
  type MatchContext,
} from '#mail/services/intake_checks'
import {
  readMessage,
  signedMessageId,
  vouching,
  type DkimResult,
  type Envelope,
  type Reading,
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
export type { IntakeAction } from '#mail/services/intake_checks'
export type IntakeDoor = 'imap' | 'smtp' | 'file' | 'console'

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

/** The signatures that vouch for the message: its own, then a trusted ARC chain's. */
const vouchers = (reading: Reading) => [...reading.passing, ...(reading.arc?.passing ?? [])]

/**
 * Of the retailers a message about the order may come from, the one a signature of the message
 * vouches for, else the first: only that one's signature moves the order.
 */
function vouchedRetailer(reading: Reading, candidates: Retailer[]): Retailer | null {
  return (
    candidates.find((retailer) =>
      vouchers(reading).some((item) => signsFor(retailer, item.domain))
    ) ??
    candidates[0] ??
    null
  )
}

/** The retailer the message's row names: the order's, else its signer's, else its sender's. */
function namedRetailer(reading: Reading, retailer: Retailer | null): Retailer | null {
  const signer = vouchers(reading)
    .map((item) => retailerOfDomain(item.domain))
    .find(Boolean)
  return retailer ?? signer ?? retailerOfDomain(reading.fromDomain)
}

/** The reason the report gives for what the outcome path did (null: nothing to add). */
function outcomeReason(outcome: MailOutcome, via: string | null): string | null {
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
  return via ? [via, reason].filter(Boolean).join('; ') : reason
}

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
   * What the checks read about a message: the order it is addressed to (or the operator chose)
   * and the retailer whose signature must vouch for it.
   */
  private async match(reading: Reading, chosen: OrderRecord | null) {
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
    const retailer = vouchedRetailer(reading, candidates)
    return { reading, chosen, addressed, order, retailer } satisfies MatchContext<OrderRecord>
  }

  /**
   * Matches, authenticates (AUTHENTICITY_CHECKS), then parses, checks what the message says
   * against its order (CONTENT_CHECKS) and acts; the message's row is updated with what it did.
   * Nothing of the message is parsed for meaning before its retailer's signature is found to
   * cover what is read.
   */
  private async decide(id: number, reading: Reading, chosen?: OrderRecord): Promise<IntakeReport> {
    const match = await this.match(reading, chosen ?? null)
    const { order, retailer } = match
    await db
      .from('mail_messages')
      .where('id', id)
      .update({
        order_id: order?.id ?? null,
        retailer: namedRetailer(reading, retailer)?.id ?? null,
        updated_at: sqlTime(),
      })

    const refused = firstVerdict(AUTHENTICITY_CHECKS, match)
    if (refused) return this.finish(id, refused)

    const signed = retailerSignature(reading, retailer!)!
    const parsed = retailer!.parse({
      subject: signed.own.headers.includes('subject') ? reading.subject : '',
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
    const content = firstVerdict(CONTENT_CHECKS, { parsed, order: order!, retailer: retailer!.id })
    if (content) return this.finish(id, content)
    // Accepted on a trusted sealer's word: the message's own DKIM result stays as it is, the
    // reason says so (`arc:<sealer>`).
    const via = signed.arcSealer
      ? `arc:${signed.arcSealer} (forwarded; ${signed.own.domain}’s signature verified by the first receiver)`
      : null
    const outcome = await this.act(order!, parsed, reading.messageId!, retailer!.id)
    return this.finish(id, { action: outcome.action, reason: outcomeReason(outcome, via) })
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

export const mailIntake = new MailIntake()
