import db from '@adonisjs/lucid/services/db'
import { sqlTime } from '#core/helpers/sql_time'

export type OrderEventKind =
  | 'outcome'
  | 'result_rejected'
  | 'fee_refund'
  | 'fee_waived'
  | 'retry'
  | 'corrected'
  | 'email_resend'
  /** A waiting order's $1.00 hold renewed before it lapsed (a new hold round). */
  | 'hold_renewed'
  /** A payment that landed after the order stopped owing it, refunded automatically. */
  | 'late_payment_refunded'
  /** The retailer's signed e-mail: shipped (with its tracking number), or read as evidence. */
  | 'mail_shipped'
  | 'mail_evidence'
  /** The retailer cancelled a confirmed order (its signed e-mail): the fee refunded in full. */
  | 'retailer_cancelled'
  /** The buyer changed the slot's sizes, retailers or price cap before its release. */
  | 'choices_changed'
  /** One retailer's try failed while another was still trying. */
  | 'try_failed'
  /** A retailer confirmed an order already won at another: flagged, never a second fee. */
  | 'extra_success'

export type OrderEventInput = {
  orderId: number
  kind: OrderEventKind
  from?: string | null
  to?: string | null
  /** Where it came from: simulator, webhook, files, manual, console, cli. */
  source?: string | null
  /** Who: an admin's e-mail, `cli:ops@host`, `release:run #12`, `bot:webhook`. */
  actor?: string | null
  note?: string | null
  meta?: Record<string, unknown> | null
}

export type OrderEvent = {
  id: number
  kind: string
  from: string | null
  to: string | null
  source: string | null
  actor: string | null
  note: string | null
  meta: Record<string, unknown> | null
  createdAt: string
}

/**
 * The order's timeline: one row per thing that happened to it after checkout (its outcome and
 * from where, refunds, waivers, retries, corrections, resends). Appended by the outcome path and
 * the money tools, never edited. Never holds card data.
 */
export class OrderTimeline {
  async append(event: OrderEventInput) {
    await db.table('order_events').insert({
      order_id: event.orderId,
      kind: event.kind,
      from_status: event.from ?? null,
      to_status: event.to ?? null,
      source: event.source?.slice(0, 32) ?? null,
      actor_label: event.actor?.slice(0, 254) ?? null,
      note: event.note?.slice(0, 500) ?? null,
      meta: event.meta ? JSON.stringify(event.meta) : null,
      created_at: sqlTime(),
    })
  }

  async forOrder(orderId: number): Promise<OrderEvent[]> {
    const rows = await db.from('order_events').where('order_id', orderId).orderBy('id', 'asc')
    return rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      from: row.from_status,
      to: row.to_status,
      source: row.source,
      actor: row.actor_label,
      note: row.note,
      meta: row.meta ? JSON.parse(row.meta) : null,
      createdAt: new Date(
        typeof row.created_at === 'string' ? `${row.created_at.replace(' ', 'T')}Z` : row.created_at
      ).toISOString(),
    }))
  }
}

export const orderTimeline = new OrderTimeline()
