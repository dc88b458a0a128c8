import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { affectedRows } from '#core/helpers/db_errors'
import { secondsSince, sqlTime } from '#core/helpers/sql_time'
import { FEE_CHARGEABLE_STATUSES } from '#shared/vocabulary'
import { orderUpdates } from '#orders/services/order_updates'
import { releaseOrderQueries, type OrderRecord } from '#orders/services/order_queries'

/**
 * The payment columns of an order, moved only by conditional UPDATEs: each method changes the
 * row only from the states it is allowed to leave, so applying it twice (a retry, a webhook
 * after our own call) is a no-op, and two workers can never both own a hold.
 * The payments module moves these; nothing else writes them.
 */
/** Orders whose hold may be claimed: queued and due, or `placing` with a stale claim. */
function claimableHolds(query: any, staleSeconds: number) {
  const now = sqlTime()
  const staleBefore = sqlTime(DateTime.now().minus({ seconds: staleSeconds }))
  return query.where((outer: any) => {
    outer
      .where((queued: any) => {
        queued
          .where('hold_status', 'queued')
          .whereIn('status', ['pending', 'entered'])
          .where((due: any) =>
            due.whereNull('hold_next_attempt_at').orWhere('hold_next_attempt_at', '<=', now)
          )
      })
      .orWhere((stale: any) => {
        stale.where('hold_status', 'placing').where('hold_claimed_at', '<', staleBefore)
      })
  })
}

/** Orders that wait for release day (or their draw) with a $1.00 hold that must stay live. */
export const WAITING_STATUSES = ['pending', 'entered']

/** When a placed hold's authorization lapses, and when the order's hold is renewed. */
export type HoldTimes = { expiresAt: DateTime; renewAt: DateTime }

function holdTimeColumns(times: HoldTimes) {
  return { hold_expires_at: sqlTime(times.expiresAt), hold_renew_at: sqlTime(times.renewAt) }
}

export class OrderPaymentState {
  /**
   * Claims up to `limit` orders whose $1.00 hold must be placed: queued ones that are due, and
   * ones left `placing` for longer than `staleSeconds` (the worker that claimed them died).
   */
  async claimHolds(limit: number, staleSeconds: number): Promise<OrderRecord[]> {
    const candidates = await this.dueHoldIds(limit, staleSeconds)
    const claimed: number[] = []
    for (const id of candidates) {
      if (await this.claimHold(id, staleSeconds)) claimed.push(id)
    }
    if (claimed.length === 0) return []
    return releaseOrderQueries.byIds(claimed)
  }

  /** Ids of orders whose hold is due (or whose claim went stale), oldest first. */
  async dueHoldIds(limit: number, staleSeconds: number): Promise<number[]> {
    const rows: { id: number }[] = await claimableHolds(
      db.from('orders').select('id'),
      staleSeconds
    )
      .orderBy('id', 'asc')
      .limit(limit)
    return rows.map((row) => row.id)
  }

  /** Holds due now: how many, and the age in seconds of the oldest order among them. */
  async holdBacklog(staleSeconds: number) {
    const row = await claimableHolds(db.from('orders'), staleSeconds)
      .count('* as due')
      .min('created_at as oldest')
      .first()
    return { due: Number(row?.due ?? 0), oldestSeconds: secondsSince(row?.oldest) }
  }

  /** Claims one order's hold when it is due; false when another worker has it or it is done. */
  async claimHold(orderId: number, staleSeconds: number): Promise<boolean> {
    const result = await claimableHolds(
      db.from('orders').where('id', orderId),
      staleSeconds
    ).update({
      hold_status: 'placing',
      hold_claimed_at: sqlTime(),
      hold_attempts: db.knexRawQuery('hold_attempts + 1'),
    })
    if (affectedRows(result) !== 1) return false
    await orderUpdates.changed(orderId)
    return true
  }

  /**
   * The hold is placed; `placed.times`: when its authorization lapses and when it is renewed;
   * `placed.cardFingerprint`: the gateway's fingerprint of the card it was placed on.
   */
  async holdPlaced(
    orderId: number,
    paymentId: string,
    placed: { times?: HoldTimes; cardFingerprint?: string | null } = {}
  ) {
    const { times, cardFingerprint } = placed
    return this.move(orderId, ['queued', 'placing', 'requires_action'], {
      hold_status: 'placed',
      hold_payment_id: paymentId,
      ...(cardFingerprint ? { hold_card_fingerprint: cardFingerprint } : {}),
      hold_placed_at: sqlTime(),
      hold_error_code: null,
      hold_claimed_at: null,
      ...(times ? holdTimeColumns(times) : {}),
    })
  }

  /**
   * Waiting orders (pending, or a draw entry) whose placed hold is due for renewal: its renewal
   * time has come (or its authorization lapsed), oldest first.
   */
  async dueRenewalIds(limit: number): Promise<number[]> {
    const rows: { id: number }[] = await db
      .from('orders')
      .select('id')
      .where('hold_status', 'placed')
      .where('hold_renew_at', '<=', sqlTime())
      .whereIn('status', WAITING_STATUSES)
      .orderBy('hold_renew_at', 'asc')
      .limit(limit)
    return rows.map((row) => row.id)
  }

  /**
   * A renewal's new hold is placed and the old one released: the order moves to the new round,
   * only from the round and payment it had (a renewal run twice moves it once).
   */
  async holdRenewed(
    orderId: number,
    from: { round: number; paymentId: string },
    to: { round: number; paymentId: string; times: HoldTimes; cardFingerprint?: string | null }
  ) {
    const result = await db
      .from('orders')
      .where('id', orderId)
      .where('hold_status', 'placed')
      .where('hold_round', from.round)
      .where('hold_payment_id', from.paymentId)
      .update({
        hold_round: to.round,
        hold_payment_id: to.paymentId,
        ...(to.cardFingerprint ? { hold_card_fingerprint: to.cardFingerprint } : {}),
        hold_placed_at: sqlTime(),
        hold_error_code: null,
        hold_claimed_at: null,
        ...holdTimeColumns(to.times),
        updated_at: sqlTime(),
      })
    if (affectedRows(result) !== 1) return false
    await orderUpdates.changed(orderId)
    return true
  }

  /**
   * A renewal's new hold waits for the customer's authentication (3-D Secure): the order moves
   * to the new round, waiting until `waitUntil`; the old hold stays live (its expiry is kept in
   * hold_expires_at) until the new one is confirmed or given up.
   */
  async holdRenewalNeedsAction(
    orderId: number,
    from: { round: number; paymentId: string },
    to: { round: number; paymentId: string; waitUntil: DateTime }
  ) {
    const result = await db
      .from('orders')
      .where('id', orderId)
      .where('hold_status', 'placed')
      .where('hold_round', from.round)
      .where('hold_payment_id', from.paymentId)
      .update({
        hold_round: to.round,
        hold_status: 'requires_action',
        hold_payment_id: to.paymentId,
        hold_error_code: 'authentication_required',
        hold_claimed_at: null,
        hold_next_attempt_at: sqlTime(to.waitUntil),
        hold_renew_at: null,
        updated_at: sqlTime(),
      })
    if (affectedRows(result) !== 1) return false
    await orderUpdates.changed(orderId)
    return true
  }

  /** A renewal the gateway could not take now (an outage): asked again at `at`. */
  async holdRenewalLater(orderId: number, code: string, at: DateTime) {
    await db
      .from('orders')
      .where('id', orderId)
      .where('hold_status', 'placed')
      .update({ hold_renew_at: sqlTime(at), hold_error_code: code.slice(0, 64) })
  }

  /** A provider outage or rate limit: back to the queue, due again after `delaySeconds`. */
  async holdRetryLater(orderId: number, code: string, delaySeconds: number) {
    return this.move(orderId, ['placing'], {
      hold_status: 'queued',
      hold_claimed_at: null,
      hold_error_code: code.slice(0, 64),
      hold_next_attempt_at: sqlTime(DateTime.now().plus({ seconds: delaySeconds })),
    })
  }

  /**
   * The bank asks the customer to authenticate the hold: it waits for them until `waitUntil`
   * (kept in hold_next_attempt_at), then the hold worker gives up on it.
   */
  async holdNeedsAction(orderId: number, paymentId: string, waitUntil: DateTime) {
    return this.move(orderId, ['queued', 'placing'], {
      hold_status: 'requires_action',
      hold_payment_id: paymentId,
      hold_error_code: 'authentication_required',
      hold_claimed_at: null,
      hold_next_attempt_at: sqlTime(waitUntil),
    })
  }

  /** Holds whose customer did not authenticate in time, claimed to be given up (`placing`). */
  async claimExpiredActions(limit: number): Promise<OrderRecord[]> {
    const rows = await db
      .from('orders')
      .where('hold_status', 'requires_action')
      .where('hold_next_attempt_at', '<=', sqlTime())
      .orderBy('id', 'asc')
      .limit(limit)
      .select('id')
    const claimed: number[] = []
    for (const row of rows) {
      const moved = await this.move(row.id, ['requires_action'], {
        hold_status: 'placing',
        hold_claimed_at: sqlTime(),
      })
      if (moved) claimed.push(row.id)
    }
    if (claimed.length === 0) return []
    return releaseOrderQueries.byIds(claimed)
  }

  async holdDeclined(orderId: number, code: string) {
    return this.move(orderId, ['queued', 'placing', 'requires_action'], {
      hold_status: 'declined',
      hold_error_code: code.slice(0, 64),
      hold_claimed_at: null,
    })
  }

  async holdReleased(orderId: number) {
    return this.move(orderId, ['placed'], {
      hold_status: 'released',
      hold_released_at: sqlTime(),
      hold_renew_at: null,
    })
  }

  /**
   * A hold that waited for the customer's authentication, cancelled at the gateway because its
   * order ended (or placed by a last-moment authentication and released the same way).
   */
  async waitingHoldCancelled(orderId: number) {
    return this.move(orderId, ['requires_action', 'placed'], {
      hold_status: 'released',
      hold_released_at: sqlTime(),
      hold_claimed_at: null,
      hold_next_attempt_at: null,
    })
  }

  /** The order ended before its hold was placed: nothing to place any more. */
  async holdSkipped(orderId: number) {
    return this.move(orderId, ['queued'], { hold_status: 'skipped', hold_claimed_at: null })
  }

  /** A stale claim of an order that ended before any hold call was made: nothing to place. */
  async holdAbandoned(orderId: number) {
    return this.move(orderId, ['placing'], { hold_status: 'skipped', hold_claimed_at: null })
  }

  /** Starts fee attempt `attempt` (1 for the first charge); false if another run got there first. */
  async beginFeeAttempt(orderId: number, attempt: number) {
    const result = await db
      .from('orders')
      .where('id', orderId)
      .where('fee_attempts', attempt - 1)
      .whereIn('fee_status', FEE_CHARGEABLE_STATUSES)
      .update({ fee_attempts: attempt })
    return affectedRows(result) === 1
  }

  async feePaid(orderId: number, paymentId: string) {
    return this.move(
      orderId,
      FEE_CHARGEABLE_STATUSES,
      {
        fee_status: 'paid',
        fee_payment_id: paymentId,
        fee_charged_at: sqlTime(),
        fee_error_code: null,
      },
      'fee_status'
    )
  }

  async feeFailed(orderId: number, status: 'failed' | 'requires_action', code: string) {
    return this.move(
      orderId,
      FEE_CHARGEABLE_STATUSES,
      { fee_status: status, fee_error_code: code.slice(0, 64) },
      'fee_status'
    )
  }

  /** No fee for this order: nothing to charge (free), or a fee that was due, waived. */
  async feeWaived(orderId: number) {
    return this.move(
      orderId,
      FEE_CHARGEABLE_STATUSES,
      { fee_status: 'waived', fee_error_code: null },
      'fee_status'
    )
  }

  /**
   * Refunds of the fee now add up to `totalCents` (read from the ledger): the fee stays `paid`
   * after a partial refund and becomes `refunded` when all of it went back. Only ever moves the
   * total up, so a late or repeated call changes nothing.
   */
  async feeRefundedTo(orderId: number, totalCents: number, full: boolean) {
    const result = await db
      .from('orders')
      .where('id', orderId)
      .where('fee_status', 'paid')
      .where('refunded_cents', '<', totalCents)
      .update({
        fee_status: full ? 'refunded' : 'paid',
        refunded_cents: totalCents,
        refunded_at: sqlTime(),
        updated_at: sqlTime(),
      })
    if (affectedRows(result) !== 1) return false
    await orderUpdates.changed(orderId)
    return true
  }

  private async move(
    orderId: number,
    from: string[],
    changes: Record<string, unknown>,
    column: 'hold_status' | 'fee_status' = 'hold_status'
  ): Promise<boolean> {
    const result = await db
      .from('orders')
      .where('id', orderId)
      .whereIn(column, from)
      .update({ ...changes, updated_at: sqlTime() })
    if (affectedRows(result) !== 1) return false
    await orderUpdates.changed(orderId)
    return true
  }
}

export const orderPaymentState = new OrderPaymentState()
