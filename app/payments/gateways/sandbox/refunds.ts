import db from '@adonisjs/lucid/services/db'
import { sqlTime } from '#core/helpers/sql_time'
import {
  GatewayRequestError,
  type GatewayRefund,
  type PaymentRef,
} from '#payments/gateways/payment_gateway'
import type { SandboxContext } from '#payments/gateways/sandbox/context'
import { idempotent } from '#payments/gateways/sandbox/idempotency_store'
import { newId } from '#payments/gateways/sandbox/records'

/** Refunds of captured payments (the fees), in full or in part. */
export class SandboxRefunds {
  constructor(private sandbox: SandboxContext) {}

  async refund(input: {
    paymentId: string
    amountCents?: number
    idempotencyKey: string
  }): Promise<PaymentRef> {
    await this.sandbox.enter()
    return idempotent(input.idempotencyKey, 'refund', async (trx) => {
      const intent = await trx
        .from('sandbox_payment_intents')
        .where('id', input.paymentId)
        .forUpdate()
        .first()
      if (!intent) throw new GatewayRequestError('resource_missing', 'No such payment_intent.')
      if (intent.status !== 'succeeded') {
        throw new GatewayRequestError(
          'charge_not_refundable',
          'This PaymentIntent does not have a successful charge to refund.'
        )
      }
      const remaining = Number(intent.amount) - Number(intent.amount_refunded)
      const amount = input.amountCents ?? remaining
      if (amount <= 0 || amount > remaining) {
        throw new GatewayRequestError(
          'charge_already_refunded',
          'The amount is greater than what is left to refund.'
        )
      }
      const id = newId('re')
      await trx.table('sandbox_refunds').insert({
        id,
        payment_intent_id: intent.id,
        amount,
        status: 'succeeded',
        created_at: sqlTime(),
      })
      await trx
        .from('sandbox_payment_intents')
        .where('id', intent.id)
        .update({ amount_refunded: Number(intent.amount_refunded) + amount, updated_at: sqlTime() })
      return { id, status: 'succeeded' }
    })
  }

  async retrieveRefund(id: string): Promise<GatewayRefund | null> {
    await this.sandbox.enter()
    const row = await db.from('sandbox_refunds').where('id', id).first()
    if (!row) return null
    return {
      id: String(row.id),
      status: String(row.status),
      amountCents: Number(row.amount),
      paymentId: String(row.payment_intent_id),
    }
  }
}
