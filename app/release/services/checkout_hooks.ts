import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { releaseConfig } from '#release/services/release_config'
import { releaseResults, type CheckoutResult } from '#release/services/release_results'
import { sqlTime } from '#core/helpers/sql_time'

/**
 * Results from a checkout bot (POST /api/hooks/checkout-results), signed like our tasks:
 * `X-Dropslot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. A wrong
 * signature or a timestamp outside the tolerance is refused; a delivery already applied (same
 * signature) is acknowledged and not applied again.
 */
export class CheckoutHooks {
  verify(rawBody: string, header: string | undefined): string {
    const { secret, toleranceSeconds } = releaseConfig().webhook
    if (!secret) {
      throw new AppError('Checkout result callbacks are not configured.', {
        status: 503,
        code: 'checkout_hooks_disabled',
      })
    }
    const parts = Object.fromEntries(
      (header ?? '').split(',').map((part) => {
        const [key, ...rest] = part.trim().split('=')
        return [key, rest.join('=')]
      })
    )
    const timestamp = Number(parts.t)
    const given = typeof parts.v1 === 'string' && /^[0-9a-f]{64}$/.test(parts.v1) ? parts.v1 : null
    if (!Number.isSafeInteger(timestamp) || !given) {
      throw AppError.badRequest('Missing or malformed signature.', 'invalid_signature')
    }
    const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest()
    if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) {
      throw AppError.badRequest('The signature does not match.', 'invalid_signature')
    }
    if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) {
      throw AppError.badRequest(
        'The signature is too old (or from the future).',
        'invalid_signature'
      )
    }
    return given
  }

  async receive(rawBody: string, header: string | undefined) {
    const signature = this.verify(rawBody, header)
    let body: unknown
    try {
      body = JSON.parse(rawBody)
    } catch {
      throw AppError.badRequest('The body must be JSON.', 'invalid_body')
    }
    const items = Array.isArray((body as any)?.results) ? (body as any).results : [body]
    const results = items.map((item: unknown, index: number) => parseResult(item, index))

    const eventId = createHash('sha256').update(signature).digest('hex')
    try {
      await db.table('checkout_result_events').insert({
        event_id: eventId,
        created_at: sqlTime(),
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      return { received: true, duplicate: true, results: [] }
    }

    const applied = []
    for (const result of results) {
      const finished = await releaseResults.record(result, 'webhook')
      applied.push({
        orderId: finished.order.publicId,
        status: finished.order.status,
        feeStatus: finished.order.feeStatus,
      })
    }
    return { received: true, duplicate: false, results: applied }
  }
}

function parseResult(item: unknown, index: number): CheckoutResult {
  const value = item as Record<string, unknown> | null
  const invalid = (message: string) =>
    AppError.unprocessable(message, { [`results.${index}`]: message }, 'invalid_result')
  if (!value || typeof value !== 'object') throw invalid('Each result must be an object.')
  if (typeof value.orderId !== 'string' || value.orderId.length > 36) {
    throw invalid('orderId must be the order id.')
  }
  if (value.status !== 'success' && value.status !== 'fail') {
    throw invalid('status must be success or fail.')
  }
  const optionalText = (field: unknown, max: number) =>
    typeof field === 'string' ? field.slice(0, max) : null
  return {
    orderId: value.orderId,
    status: value.status,
    confirmationNumber: optionalText(value.confirmationNumber, 120),
    reason: optionalText(value.reason, 255),
  }
}

export const checkoutHooks = new CheckoutHooks()
