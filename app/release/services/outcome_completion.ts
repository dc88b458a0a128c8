import { auditLog } from '#core/services/audit_log_service'
import { opsLog } from '#core/services/ops_log'
import { orderTimeline } from '#orders/services/order_timeline'
import { labelOf, type Completion } from '#release/services/outcome_context'
import { releaseResults, type FinishReport } from '#release/services/release_results'

/**
 * Applies a recorded result (status, money, e-mail: `ReleaseResults.finish`), then writes the
 * operations log, the timeline and the audit entry. `OrderOutcome.complete` runs it under the
 * order's money lock.
 */
export async function completeResult({
  orderId,
  before,
  changed,
  context,
}: Completion): Promise<FinishReport> {
  const finished = await releaseResults.finish(orderId)
  const after = finished.order
  const task = await releaseResults.task(orderId)
  const actor = context.actor
  const outcome = finished.outcome
  const code = task?.reason_code ?? null

  if (changed) {
    opsLog('order.result', {
      order: after.publicId,
      run: task?.run_id ?? null,
      source: context.source,
      outcome,
      status: after.status,
      fee: after.feeStatus,
      hold: after.holdStatus,
      failCode: code,
    })
    await orderTimeline.append({
      orderId: after.id,
      kind: 'outcome',
      from: before,
      to: after.status,
      source: context.source,
      actor: labelOf(actor),
      note: outcome === 'success' ? (task?.confirmation_number ?? null) : (task?.reason ?? null),
      meta: {
        feeStatus: after.feeStatus,
        holdStatus: after.holdStatus,
        ...(code ? { failCode: code } : {}),
        ...(task?.run_id ? { runId: task.run_id } : {}),
      },
    })
  }
  if (changed || context.source === 'manual') {
    await auditLog.record({
      actor,
      ip: context.ip ?? null,
      action:
        context.source === 'manual'
          ? outcome === 'success'
            ? 'order.mark_success'
            : 'order.mark_fail'
          : 'order.result',
      subjectType: 'order',
      subjectId: after.publicId,
      reason: task?.reason ?? null,
      meta: {
        source: context.source,
        via: context.via ?? context.source,
        from: before,
        to: after.status,
        changed,
        confirmationNumber: task?.confirmation_number ?? null,
        settlement: { fee: after.feeStatus, hold: after.holdStatus },
      },
    })
  }
  return finished
}
