import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import {
  CardDeclinedError,
  GatewayRequestError,
  GatewayUnavailableError,
} from '#payments/gateways/payment_gateway'

type StoredResponse =
  | { ok: unknown }
  | {
      error: {
        kind: 'declined' | 'request'
        code: string
        declineCode: string | null
        message: string
        paymentId?: string | null
      }
    }

/**
 * Runs an operation once per idempotency key, in one transaction with the record of its
 * outcome: the same key later gets the same answer (declines included), as Stripe does.
 */
export async function idempotent<T>(
  key: string,
  operation: string,
  run: (trx: TransactionClientContract) => Promise<T>
): Promise<T> {
  if (!key)
    throw new GatewayRequestError('idempotency_key_missing', 'An idempotency key is required.')
  const previous = await db.from('sandbox_requests').where('idempotency_key', key).first()
  if (previous) return replay<T>(previous, operation)

  let stored: StoredResponse
  try {
    stored = await db.transaction(async (trx) => {
      await trx.table('sandbox_requests').insert({
        idempotency_key: key,
        operation,
        state: 'done',
        response: null,
        created_at: sqlTime(),
      })
      let response: StoredResponse
      try {
        response = { ok: await run(trx) }
      } catch (error) {
        response = { error: storedError(error) }
      }
      await trx
        .from('sandbox_requests')
        .where('idempotency_key', key)
        .update({ response: JSON.stringify(response) })
      return response
    })
  } catch (error) {
    if (isUniqueViolation(error)) {
      const winner = await db.from('sandbox_requests').where('idempotency_key', key).first()
      if (winner) return replay<T>(winner, operation)
    }
    throw error
  }
  return unwrap<T>(stored)
}

/** A refusal as it is kept with its key; anything else is thrown (the transaction rolls back). */
function storedError(error: unknown): Extract<StoredResponse, { error: unknown }>['error'] {
  if (error instanceof CardDeclinedError) {
    return {
      kind: 'declined',
      code: error.code,
      declineCode: error.declineCode,
      message: error.message,
      paymentId: error.paymentId,
    }
  }
  if (error instanceof GatewayRequestError) {
    return { kind: 'request', code: error.code, declineCode: null, message: error.message }
  }
  throw error
}

function replay<T>(row: { operation: string; response: string | null }, operation: string): T {
  if (row.operation !== operation) {
    throw new GatewayRequestError(
      'idempotency_key_in_use',
      'Keys for idempotent requests can only be used with the same parameters they were first used with.'
    )
  }
  if (!row.response) {
    throw new GatewayUnavailableError(
      'idempotency_key_in_use',
      'A request with this key is in flight.'
    )
  }
  return unwrap<T>(JSON.parse(row.response) as StoredResponse)
}

function unwrap<T>(stored: StoredResponse): T {
  if ('ok' in stored) return stored.ok as T
  const { kind, code, declineCode, message, paymentId } = stored.error
  if (kind === 'declined') throw new CardDeclinedError(code, declineCode, message, paymentId)
  throw new GatewayRequestError(code, message)
}
