import { basename } from 'node:path'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import {
  ImportFileError,
  messageOf,
  pick,
  readRows,
  type RowError,
} from '#core/services/import_rows'
import type { CheckoutResult } from '#release/services/release_results'
import { orderOutcome, type OutcomePlan } from '#release/services/order_outcome'
import { resultTarget, wonDetails, type ResultTarget } from '#release/services/task_ids'
import { AppError } from '#core/exceptions/app_error'

export { ImportFileError, readRows }

/** One row of a bot's results file as a result, or the reason it cannot be one. */
function resultOf(row: Record<string, unknown>): CheckoutResult {
  let named: ResultTarget
  let won: ReturnType<typeof wonDetails>
  try {
    named = resultTarget(
      pick(row, 'orderId', 'order_id', 'order', 'id'),
      pick(row, 'taskId', 'task_id', 'task'),
      pick(row, 'round')
    )
    won = wonDetails(pick(row, 'size'), pick(row, 'totalCents', 'total_cents'))
  } catch (error) {
    throw new ImportFileError((error as Error).message)
  }
  const rawStatus = String(pick(row, 'status', 'result', 'outcome') ?? '').toLowerCase()
  const status = ['success', 'succeeded', 'ok', 'true'].includes(rawStatus)
    ? 'success'
    : ['fail', 'failed', 'failure', 'false'].includes(rawStatus)
      ? 'fail'
      : null
  if (!status) throw new ImportFileError('status must be success or fail.')
  const confirmation = pick(row, 'confirmationNumber', 'confirmation_number', 'confirmation')
  const reason = pick(row, 'reason', 'error', 'message')
  const reasonCode = pick(row, 'reasonCode', 'reason_code', 'code')
  return {
    orderId: named.orderId,
    round: named.round,
    status,
    confirmationNumber: confirmation === undefined ? null : String(confirmation),
    reason: reason === undefined ? null : String(reason),
    reasonCode: reasonCode === undefined ? null : String(reasonCode),
    retailer: named.retailer,
    ...won,
  }
}

export type ImportPlanRow = OutcomePlan & { row: number }

/**
 * A bot's results file: each row an order id, success|fail, and a confirmation or reason. Only
 * orders submitted to the files engine in a release run are taken (the one outcome path checks
 * each row; a refused row is reported with its number and reason, and the others go in).
 * `dryRun` applies nothing and answers the plan: per order, the customer, the outcome and the fee
 * that would be charged. Every import (dry or not) is written to the audit log.
 */
export async function importResults(
  path: string,
  options: { actor?: AuditActor | null; dryRun?: boolean; onItem?: () => void } = {}
) {
  const rows = await readRows(path, 'results')
  const actor = options.actor ?? { label: 'files' }
  const applied: { orderId: string; status: string; feeStatus: string }[] = []
  const plan: ImportPlanRow[] = []
  const errors: (RowError & { code?: string })[] = []
  for (const [index, row] of rows.entries()) {
    try {
      const result = resultOf(row)
      if (options.dryRun) {
        const checked = await orderOutcome.plan(result, 'files')
        if ('rejection' in checked) {
          errors.push({
            row: index + 1,
            code: checked.rejection.code,
            error: checked.rejection.reason,
          })
        } else {
          plan.push({ row: index + 1, ...checked.plan })
        }
      } else {
        const finished = await orderOutcome.apply(result, {
          source: 'files',
          actor,
          via: 'orders:import-results',
        })
        applied.push({
          orderId: result.orderId,
          status: finished.order.status,
          feeStatus: finished.order.feeStatus,
        })
      }
    } catch (error) {
      const code = error instanceof AppError ? error.code : undefined
      errors.push({ row: index + 1, ...(code ? { code } : {}), error: messageOf(error) })
    }
    options.onItem?.()
  }
  await auditLog.record({
    actor,
    action: options.dryRun ? 'order.import_results_dry_run' : 'order.import_results',
    subjectType: 'order',
    meta: {
      file: basename(path),
      rows: rows.length,
      applied: applied.length,
      planned: plan.length,
      refused: errors.length,
      feeCentsPlanned: plan.reduce((sum, item) => sum + item.feeCents, 0),
    },
  })
  return { total: rows.length, dryRun: Boolean(options.dryRun), applied, plan, errors }
}
