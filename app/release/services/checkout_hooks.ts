import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { releaseConfig } from '#release/services/release_config'
import { noteDeprecatedSecret } from '#release/services/checkout_engines'
import type { CheckoutResult } from '#release/services/release_results'
import { orderOutcome } from '#release/services/order_outcome'
import { sqlTime } from '#core/helpers/sql_time'
import { jobs } from '#core/jobs/jobs'
import { resultTarget, wonDetails, type ResultTarget } from '#release/services/task_ids'
import { countBadSignature } from '#core/services/bad_signatures'

/**
 * Results from a checkout bot (POST /api/hooks/checkout-results), signed like our tasks but with
 * the results secret (CHECKOUT_RESULTS_SECRET; a task's signature proves nothing here):
 * `X-Dropslot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. A wrong
 * signature or a timestamp outside the tolerance is refused; a delivery already applied (same
 * signature) is answered with its first answer and not applied again.
 */
export class CheckoutHooks {
  verify(rawBody: string, header: string | undefined): string {
    const {
      resultsSecret: secret,
      toleranceSeconds,
      usesDeprecatedSecret,
    } = releaseConfig().webhook
    noteDeprecatedSecret(usesDeprecatedSecret)
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

  /**
   * A signed delivery of one result or a batch (`{results: [...]}`). The whole body is checked
   * for shape first (a malformed item: 422, nothing applied). Then each result goes through the
   * one outcome path on its own: an unknown order, or one not submitted to the webhook engine in
   * a run, is refused for that item with a code and reason, and the others are applied. The
   * answer is stored under a hash of the body, so a replay (even signed afresh) gets the first
   * answer again.
   */
  async receive(rawBody: string, header: string | undefined) {
    try {
      this.verify(rawBody, header)
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_signature') {
        countBadSignature('checkout-results')
      }
      throw error
    }
    let body: unknown
    try {
      body = JSON.parse(rawBody)
    } catch {
      throw AppError.badRequest('The body must be JSON.', 'invalid_body')
    }
    const items = Array.isArray((body as any)?.results) ? (body as any).results : [body]
    if (items.length === 0 || items.length > MAX_RESULTS) {
      throw AppError.unprocessable(
        `A delivery holds 1 to ${MAX_RESULTS} results.`,
        { results: `1 to ${MAX_RESULTS} results.` },
        'invalid_result'
      )
    }
    const results = items.map((item: unknown, index: number) => parseResult(item, index))

    // The delivery is known by its body, not its signature: a bot that retries signs afresh.
    const eventId = createHash('sha256').update(rawBody).digest('hex')
    const stored = await this.storedAnswer(eventId)
    if (stored) return { ...stored, duplicate: true }

    // With workers, the results are applied by a job (fees are charged there, not in this
    // request); the bot is answered 202 and a replay before the job is done is not applied twice.
    if (jobs.driverName === 'bullmq') {
      await jobs.dispatch('release.apply-results', { eventId, results })
      return { received: true, queued: true, total: results.length, duplicate: false }
    }
    return { ...(await this.applyDelivery(eventId, results)), duplicate: false }
  }

  /** Applies each result of a delivery through the one outcome path, and stores the answer. */
  async applyDelivery(eventId: string, results: CheckoutResult[]) {
    const answers: ResultAnswer[] = []
    for (const result of results) {
      try {
        const finished = await orderOutcome.apply(result, {
          source: 'webhook',
          actor: { label: 'bot:webhook' },
          via: 'webhook',
        })
        answers.push({
          orderId: result.orderId,
          accepted: true,
          status: finished.order.status,
          feeStatus: finished.order.feeStatus,
        })
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error
        answers.push({
          orderId: result.orderId,
          accepted: false,
          code: error.code ?? 'rejected',
          reason: error.message,
        })
      }
    }
    const answer = {
      received: true,
      total: results.length,
      accepted: answers.filter((item) => item.accepted).length,
      rejected: answers.filter((item) => !item.accepted).length,
      results: answers,
    }
    await db
      .from('checkout_result_events')
      .where('event_id', eventId)
      .update({ response: JSON.stringify(answer) })
    return answer
  }

  /**
   * The answer already given to this delivery, or null after claiming it. A claim left without an
   * answer (the process died while applying it) is applied again: every step is idempotent.
   */
  private async storedAnswer(eventId: string) {
    try {
      await db.table('checkout_result_events').insert({ event_id: eventId, created_at: sqlTime() })
      return null
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    const row = await db.from('checkout_result_events').where('event_id', eventId).first()
    return row?.response ? (JSON.parse(row.response) as Record<string, unknown>) : null
  }
}

type ResultAnswer =
  | { orderId: string; accepted: true; status: string; feeStatus: string }
  | { orderId: string; accepted: false; code: string; reason: string }

/** Results in one delivery, at most. */
const MAX_RESULTS = 500

function parseResult(item: unknown, index: number): CheckoutResult {
  const value = item as Record<string, unknown> | null
  const invalid = (message: string) =>
    AppError.unprocessable(message, { [`results.${index}`]: message }, 'invalid_result')
  if (!value || typeof value !== 'object') throw invalid('Each result must be an object.')
  let named: ResultTarget
  let won: ReturnType<typeof wonDetails>
  try {
    named = resultTarget(value.orderId, value.taskId, value.round)
    won = wonDetails(value.size, value.totalCents)
  } catch (error) {
    throw invalid((error as Error).message)
  }
  if (value.status !== 'success' && value.status !== 'fail') {
    throw invalid('status must be success or fail.')
  }
  const optionalText = (field: unknown, max: number) =>
    typeof field === 'string' ? field.slice(0, max) : null
  return {
    orderId: named.orderId,
    round: named.round,
    status: value.status,
    confirmationNumber: optionalText(value.confirmationNumber, 120),
    reason: optionalText(value.reason, 255),
    reasonCode: optionalText(value.reasonCode ?? value.code, 16),
    retailer: named.retailer,
    ...won,
  }
}

export const checkoutHooks = new CheckoutHooks()
