import { auditLog } from '#core/services/audit_log_service'
import { crashPoint } from '#core/services/crash_points'
import { opsLog } from '#core/services/ops_log'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderMailAddress } from '#orders/services/order_mail_address'
import type { OrderRecord } from '#orders/services/order_queries'
import { acoExportService } from '#release/services/aco_export_service'
import {
  EngineError,
  type CheckoutEngine,
  type CheckoutTask,
  type EngineResult,
} from '#release/services/checkout_engines'
import { orderOutcome } from '#release/services/order_outcome'
import { releaseResults, type FinishReport } from '#release/services/release_results'
import { releaseTries } from '#release/services/release_tries'
import type { SubmitTally } from '#release/services/submit_tally'
import {
  isNoTask,
  taskOf,
  type NoTask,
  type TaskPlan,
  type TaskPlanner,
  type TaskRetailer,
} from '#release/services/task_plan'

/** What one order's submission changes in its run's report. */
export type SubmissionTally = {
  submitted: () => void
  awaitingResult: () => void
  submitError: () => void
  finished: (report: FinishReport) => void
}

/** One order's submission: what each of its tries needs. */
type Submission = {
  order: OrderRecord
  engine: CheckoutEngine
  runId: number
  round: number
  plan: TaskPlan
  mailAddress: string | null
  breaker: SubmitTally
  tally: SubmissionTally
}

/**
 * Hands a claimed order to the checkout engine (docs/release-day.md): one task per retailer the
 * buyer accepts within their cap (`release_tries`), each with the size ladder, or one task for
 * a product that names no retailer. Tries already sent by an earlier run are not sent again. An
 * engine's immediate answer (the simulator) goes through the one outcome path: a failure moves on
 * to the next retailer, the first success wins and cancels the rest. An order above its cap at
 * every accepted retailer is never sent: it fails, nothing charged.
 */
export async function submitOrder(
  order: OrderRecord,
  engine: CheckoutEngine,
  runId: number,
  planner: TaskPlanner,
  breaker: SubmitTally,
  tally: SubmissionTally
) {
  const task = await releaseResults.ensureTask(order, engine.name, runId)
  if (task.status !== 'submitting') return
  await releaseResults.noteSubmitAttempt(order.id, runId, engine.name)
  const round = Number(task.round_number ?? 1)
  const plan = await planner.plan(order)
  if (isNoTask(plan)) {
    opsLog('order.not_sent', { order: order.publicId, run: runId, reason: plan.code })
    tally.finished(await failNeverSent(order, round, plan, engine))
    return
  }

  const { targets, sentBefore } = await retailersToSend(order, round, plan)
  const mailAddress = engine.needsCardData ? await orderMailAddress.ensure(order) : null
  if (engine.needsCardData && targets.length) await auditHandOver(order, engine, runId, targets)
  const submission: Submission = {
    order,
    engine,
    runId,
    round,
    plan,
    mailAddress,
    breaker,
    tally,
  }

  let counted = sentBefore
  for (const [index, retailer] of targets.entries()) {
    const result = await sendTry(submission, retailer, index, counted)
    if (!result) return
    counted = true
    if (result.status === 'submitted') continue
    const finished = await applyAnswer(submission, retailer, result)
    // A retailer sold out while another is still to try: on to the next.
    if (finished.stillTrying) continue
    tally.finished(finished)
    return
  }
  await releaseResults.noteSubmitted(order.id)
  tally.awaitingResult()
}

/** Every retailer the buyer accepted is above their cap (or nothing fits): failed, never sent. */
function failNeverSent(order: OrderRecord, round: number, plan: NoTask, engine: CheckoutEngine) {
  return orderOutcome.apply(
    {
      orderId: order.publicId,
      round,
      status: 'fail',
      reason: plan.reason,
      reasonCode: plan.code,
    },
    { source: engine.name, via: 'release:run' }
  )
}

/**
 * The retailers still to send to this round (`[null]`: one task, no retailer named), and whether
 * an earlier run sent some already.
 */
async function retailersToSend(order: OrderRecord, round: number, plan: TaskPlan) {
  if (!plan.retailers.length) {
    return { targets: [null] as (TaskRetailer | null)[], sentBefore: false }
  }
  const tries = await releaseTries.ensure(
    order.id,
    round,
    plan.retailers.map((retailer) => retailer.retailer)
  )
  const sentBefore = tries.some((row) => row.status !== 'sending')
  const targets: (TaskRetailer | null)[] = []
  for (const row of tries.filter((candidate) => candidate.status === 'sending')) {
    const retailer = plan.retailers.find((entry) => entry.retailer === row.retailer)
    // A retailer no longer within the plan (its price rose above the cap since): not sent.
    if (retailer) targets.push(retailer)
    else
      await releaseTries.move(
        { orderId: order.id, round, retailer: row.retailer },
        ['sending'],
        'cancelled'
      )
  }
  return { targets, sentBefore }
}

async function auditHandOver(
  order: OrderRecord,
  engine: CheckoutEngine,
  runId: number,
  targets: (TaskRetailer | null)[]
) {
  await auditLog.record({
    actor: { label: `release:run #${runId}` },
    action: 'order.aco_submit',
    subjectType: 'order',
    subjectId: order.publicId,
    reason: `Release day: handed to the ${engine.name} checkout engine.`,
    meta: {
      runId,
      engine: engine.name,
      retailers: targets.map((retailer) => retailer?.retailer ?? null),
    },
  })
}

function checkoutTask(
  submission: Submission,
  retailer: TaskRetailer | null,
  index: number
): CheckoutTask {
  const { order, round, plan, engine } = submission
  return {
    ...taskOf(order, round, plan, retailer),
    tryNumber: plan.retailers.findIndex((entry) => entry === retailer) + 1 || index + 1,
    aco: engine.needsCardData
      ? acoExportService.entryFor(order, round, plan, retailer, submission.mailAddress)
      : null,
  }
}

/**
 * Sends one try to the engine. The engine's answer, or null when it refused or could not be
 * reached (the run stops submitting this order). `counted`: the order is already in the report's
 * submitted count.
 */
async function sendTry(
  submission: Submission,
  retailer: TaskRetailer | null,
  index: number,
  counted: boolean
): Promise<EngineResult | null> {
  const { order, engine, runId, round, breaker, tally } = submission
  const payload = checkoutTask(submission, retailer, index)
  let result
  try {
    result = await engine.submit(payload)
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    await noteRefused(submission, retailer, error, counted)
    return null
  }
  breaker.accept()
  crashPoint('submitted')
  if (!counted) tally.submitted()
  if (retailer) {
    await releaseTries.move(
      { orderId: order.id, round, retailer: retailer.retailer },
      ['sending'],
      'sent'
    )
  }
  opsLog('order.submitted', {
    order: order.publicId,
    run: runId,
    engine: engine.name,
    retailer: retailer?.retailer ?? null,
    answer: result.status,
  })
  return result
}

async function noteRefused(
  submission: Submission,
  retailer: TaskRetailer | null,
  error: EngineError,
  counted: boolean
) {
  const { order, engine, runId, breaker, tally } = submission
  await releaseResults.noteSubmitError(order.id, error.message)
  tally.submitError()
  opsLog('order.submit_failed', {
    order: order.publicId,
    run: runId,
    engine: engine.name,
    retailer: retailer?.retailer ?? null,
    unreachable: error.unreachable,
    error: error.message,
  })
  // Nothing of it reached the engine: pending again, for the next run. Tries already sent
  // stay with the bot; the next run sends the rest.
  if (error.unreachable && !counted) await orderLifecycle.unclaim(order)
  breaker.refuse(error)
}

/**
 * An engine's immediate answer, through the one outcome path: checked first, then applied,
 * timeline and audit. A refused result throws (409/404) and changes nothing.
 */
function applyAnswer(
  submission: Submission,
  retailer: TaskRetailer | null,
  result: Exclude<EngineResult, { status: 'submitted' }>
) {
  const { order, round, plan, engine } = submission
  return orderOutcome.apply(
    {
      orderId: order.publicId,
      round,
      retailer: retailer?.retailer ?? null,
      status: result.status,
      confirmationNumber: result.status === 'success' ? result.confirmationNumber : null,
      size: result.status === 'success' ? (result.size ?? plan.sizes[0]) : null,
      reason: result.status === 'fail' ? result.reason : null,
    },
    { source: engine.name, via: 'release:run' }
  )
}
