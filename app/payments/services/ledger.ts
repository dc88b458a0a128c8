import db from '@adonisjs/lucid/services/db'
import PaymentLedgerEntry, { type LedgerKind } from '#payments/models/payment_ledger_entry'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

/** A ledger row as other modules read it (the console's order page): its columns. */
export type LedgerEntryRecord = Readonly<ModelAttributes<PaymentLedgerEntry>>
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { AppError } from '#core/exceptions/app_error'

/**
 * A key already written for another call: another kind, or another amount. The provider would
 * answer the first call's result (or refuse), so the second call is never made under it.
 */
export class LedgerKeyConflictError extends AppError {
  constructor(key: string, detail: string) {
    super(`This payment call's idempotency key was already used for ${detail}; nothing was sent.`, {
      status: 409,
      code: 'idempotency_key_conflict',
    })
    this.key = key
  }

  key: string
}

/**
 * The payment ledger: a row is written before every gateway call, keyed by the call's fixed
 * idempotency key, and completed after it. Finding a row already `succeeded` means the call was
 * made: the caller uses its result instead of calling again. A row left `started` (a crash, an
 * outage) is retried with the same key, which the provider treats as the same request.
 *
 * A key is one call: finding it again with another kind or amount is refused
 * (`LedgerKeyConflictError`), never sent. Rows only move forward, each by one conditional
 * UPDATE: started -> succeeded | failed. A succeeded row is never overwritten by a failure
 * reported later; a failed row becomes succeeded only when the gateway, read back, reports that
 * the payment went through after all (`landed`).
 */
export class Ledger {
  /**
   * Writes the row of a call about to be made, or returns the row of the same call made before.
   * `legacyKey`: the key an earlier version used for this call; a row under it is that call, and
   * the caller resumes it with `entry.idempotencyKey` (the key the provider saw).
   */
  async begin(entry: {
    key: string
    legacyKey?: string | null
    kind: LedgerKind
    gateway: string
    orderId?: number | null
    userId?: number | null
    amountCents: number
  }): Promise<PaymentLedgerEntry> {
    const legacy = entry.legacyKey ? await this.find(entry.legacyKey) : null
    if (legacy) return this.resume(this.sameCall(legacy, entry))
    try {
      return await PaymentLedgerEntry.create({
        idempotencyKey: entry.key,
        kind: entry.kind,
        gateway: entry.gateway,
        orderId: entry.orderId ?? null,
        userId: entry.userId ?? null,
        amountCents: entry.amountCents,
        currency: 'usd',
        status: 'started',
        attempts: 1,
        gatewayRef: null,
        errorCode: null,
        errorMessage: null,
        completedAt: null,
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    const existing = await PaymentLedgerEntry.findByOrFail('idempotencyKey', entry.key)
    return this.resume(this.sameCall(existing, entry))
  }

  /** The row found under a key is this call only with the same kind and amount. */
  private sameCall(
    existing: PaymentLedgerEntry,
    entry: { kind: LedgerKind; amountCents: number }
  ): PaymentLedgerEntry {
    if (existing.kind !== entry.kind) {
      throw new LedgerKeyConflictError(existing.idempotencyKey, `a ${existing.kind} call`)
    }
    if (Number(existing.amountCents) !== entry.amountCents) {
      throw new LedgerKeyConflictError(
        existing.idempotencyKey,
        `another amount (${existing.amountCents} cents, not ${entry.amountCents})`
      )
    }
    return existing
  }

  private async resume(existing: PaymentLedgerEntry) {
    if (existing.status === 'started') {
      await db.from('payment_ledger').where('id', existing.id).increment('attempts', 1)
      existing.attempts += 1
    }
    return existing
  }

  /**
   * started -> succeeded. False (and the row as it is now in `entry`) when the row had left
   * `started` already: a succeeded row keeps its first result.
   */
  async succeed(entry: PaymentLedgerEntry, gatewayRef: string) {
    return this.move(entry, ['started'], {
      status: 'succeeded',
      gateway_ref: gatewayRef.slice(0, 120),
      error_code: null,
      error_message: null,
      completed_at: sqlTime(),
    })
  }

  /**
   * The gateway, read back, reports the payment of this row went through: started or failed ->
   * succeeded (a payment that landed after all; its error stays readable in `errorMessage`).
   */
  async landed(entry: PaymentLedgerEntry, gatewayRef: string) {
    return this.move(entry, ['started', 'failed'], {
      status: 'succeeded',
      gateway_ref: gatewayRef.slice(0, 120),
      error_code: entry.status === 'failed' ? 'landed_late' : null,
      completed_at: sqlTime(),
    })
  }

  /**
   * started -> failed. A row that succeeded (or failed) already is left as it is: false.
   * `gatewayRef`: the payment the provider kept for the declined call (it may still complete).
   */
  async fail(
    entry: PaymentLedgerEntry,
    code: string,
    message: string,
    gatewayRef: string | null = null
  ) {
    return this.move(entry, ['started'], {
      status: 'failed',
      error_code: code.slice(0, 64),
      error_message: message.slice(0, 255),
      completed_at: sqlTime(),
      ...(gatewayRef ? { gateway_ref: gatewayRef.slice(0, 120) } : {}),
    })
  }

  /** The call may succeed later: the row stays `started` so the next run uses the same key. */
  async noteRetry(entry: PaymentLedgerEntry, code: string, message: string) {
    return this.move(entry, ['started'], {
      error_code: code.slice(0, 64),
      error_message: message.slice(0, 255),
    })
  }

  /** One conditional UPDATE from `from`; then `entry` holds the row as it is now. */
  private async move(
    entry: PaymentLedgerEntry,
    from: ('started' | 'failed')[],
    changes: Record<string, unknown>
  ): Promise<boolean> {
    const result = await db
      .from('payment_ledger')
      .where('id', entry.id)
      .whereIn('status', from)
      .update({ ...changes, updated_at: sqlTime() })
    await entry.refresh()
    return affectedRows(result) === 1
  }

  /** The row of a key; with `{ key, legacyKey }`, the row under either (the new key first). */
  async find(keys: string | { key: string; legacyKey?: string | null }) {
    const { key, legacyKey } = typeof keys === 'string' ? { key: keys, legacyKey: null } : keys
    const row = await PaymentLedgerEntry.findBy('idempotencyKey', key)
    return row ?? (legacyKey ? PaymentLedgerEntry.findBy('idempotencyKey', legacyKey) : null)
  }

  async forOrder(orderId: number) {
    return PaymentLedgerEntry.query().where('order_id', orderId).orderBy('id', 'asc')
  }

  /** Sums of succeeded fee and refund rows, in cents. */
  async totals(): Promise<{ capturedCents: number; refundedCents: number }> {
    const rows = await PaymentLedgerEntry.query()
      .select('kind')
      .sum('amount_cents as cents')
      .where('status', 'succeeded')
      .whereIn('kind', ['fee', 'refund'])
      .groupBy('kind')
    const sum = (kind: string) => Number(rows.find((row) => row.kind === kind)?.$extras.cents ?? 0)
    return { capturedCents: sum('fee'), refundedCents: sum('refund') }
  }

  /**
   * The money rows of these orders that went through (succeeded fees and refunds), oldest first:
   * what the release reports count and the reconciliation holds against the gateway's records.
   */
  async moneyRowsFor(orderIds: number[]): Promise<MoneyRow[]> {
    const rows: MoneyRow[] = []
    for (let start = 0; start < orderIds.length; start += 500) {
      const found = await db
        .from('payment_ledger')
        .whereIn('order_id', orderIds.slice(start, start + 500))
        .whereIn('kind', ['fee', 'refund'])
        .where('status', 'succeeded')
        .select('id', 'order_id', 'kind', 'amount_cents', 'gateway_ref', 'gateway')
        .orderBy('id', 'asc')
      for (const row of found) {
        rows.push({
          id: Number(row.id),
          orderId: Number(row.order_id),
          kind: row.kind,
          amountCents: Number(row.amount_cents),
          gatewayRef: row.gateway_ref ?? null,
          gateway: String(row.gateway),
        })
      }
    }
    return rows
  }

  async findByGatewayRef(ref: string) {
    return PaymentLedgerEntry.query().where('gateway_ref', ref).orderBy('id', 'asc').first()
  }
}

export type MoneyRow = {
  id: number
  orderId: number
  kind: 'fee' | 'refund'
  amountCents: number
  gatewayRef: string | null
  gateway: string
}

export const ledger = new Ledger()
