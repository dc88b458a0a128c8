import logger from '@adonisjs/core/services/logger'

/**
 * The operations log: one structured line per release-day event (JSON in production, through the
 * app logger and its redaction), so an operator can follow a release with
 * `node build/bin/server.js | grep '"ops":'` or
 * `npx dropslot release:run --verbose 2>&1 | jq 'select(.ops)'`.
 * Fields name orders by public id and runs by id; never card data, e-mail addresses or secrets.
 */
export type OpsEvent =
  | 'run.start'
  | 'run.end'
  | 'order.submitted'
  | 'order.submit_failed'
  | 'order.result'
  /** A release run sent no task for the order (every retailer the buyer accepts is above the cap). */
  | 'order.not_sent'
  /** A success the buyer did not agree to pay for (a size off the ladder, a total over the cap). */
  | 'order.review'
  | 'order.extra_success'
  | 'order.cancel_failed'
  /** Every retailer sold out and the product's restock window closed: the order fails. */
  | 'order.restock_closed'
  | 'hold.placed'
  | 'hold.released'
  | 'hold.renewed'
  | 'fee.charged'
  | 'fee.declined'
  | 'fee.refunded'
  | 'fee.late_refunded'
  | 'email.sent'
  | 'email.failed'
  | 'mail.received'
  | 'mail.matched'
  | 'mail.rejected'

type Field = string | number | boolean | null | undefined | string[] | number[]

export function opsLog(event: OpsEvent, fields: Record<string, Field>, message: string = event) {
  const level =
    event.endsWith('failed') || event === 'fee.declined' || event === 'mail.rejected'
      ? 'warn'
      : 'info'
  logger[level]({ ops: event, ...fields }, message)
}

/**
 * Runs `work` with the logger at `level` or quieter (a quieter level already set stays), e.g. the
 * demo seed, whose holds, charges and failed orders are set-up rather than events to report.
 */
export async function withLogLevelAtMost<T>(level: 'warn' | 'error', work: () => Promise<T>) {
  const previous = logger.level
  const { values } = logger.levels
  if ((values[previous] ?? 0) < values[level]) logger.level = level
  try {
    return await work()
  } finally {
    logger.level = previous
  }
}
