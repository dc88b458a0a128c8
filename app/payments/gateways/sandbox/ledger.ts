import db from '@adonisjs/lucid/services/db'
import { sqlTime } from '#core/helpers/sql_time'
import type { GatewayMoney } from '#payments/gateways/payment_gateway'
import type { SandboxContext } from '#payments/gateways/sandbox/context'

/** The sandbox's record of money moved, as reconciliation reads a provider's. */
export class SandboxLedger {
  constructor(private sandbox: SandboxContext) {}

  /**
   * The sandbox's own records of money moved since a time: the payments it captured (a fee; a
   * captured $1.00 check would show here too) and its refunds, as its tables hold them.
   */
  async moneyMoved(since: Date): Promise<GatewayMoney[]> {
    await this.sandbox.enter()
    const from = sqlTime(since)
    const [charges, refunds] = await Promise.all([
      db
        .from('sandbox_payment_intents')
        .where('status', 'succeeded')
        .where('created_at', '>=', from)
        .select('id', 'amount', 'metadata', 'created_at')
        .orderBy('created_at', 'asc'),
      db
        .from('sandbox_refunds')
        .join(
          'sandbox_payment_intents',
          'sandbox_payment_intents.id',
          'sandbox_refunds.payment_intent_id'
        )
        .where('sandbox_refunds.status', 'succeeded')
        .where('sandbox_refunds.created_at', '>=', from)
        .select(
          'sandbox_refunds.id',
          'sandbox_refunds.amount',
          'sandbox_refunds.payment_intent_id',
          'sandbox_refunds.created_at',
          'sandbox_payment_intents.metadata'
        )
        .orderBy('sandbox_refunds.created_at', 'asc'),
    ])
    return [
      ...charges.map((row): GatewayMoney => {
        const metadata = metadataOf(row.metadata)
        return {
          type: 'charge',
          id: String(row.id),
          paymentId: String(row.id),
          amountCents: Number(row.amount),
          orderPublicId: metadata.order_id ?? null,
          purpose: metadata.purpose ?? null,
          createdAt: dateOf(row.created_at),
        }
      }),
      ...refunds.map((row): GatewayMoney => {
        const metadata = metadataOf(row.metadata)
        return {
          type: 'refund',
          id: String(row.id),
          paymentId: String(row.payment_intent_id),
          amountCents: Number(row.amount),
          orderPublicId: metadata.order_id ?? null,
          purpose: 'refund',
          createdAt: dateOf(row.created_at),
        }
      }),
    ]
  }
}

function metadataOf(raw: string | null) {
  try {
    return (raw ? JSON.parse(raw) : {}) as Record<string, string>
  } catch {
    return {}
  }
}

function dateOf(value: unknown) {
  return value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)
}
