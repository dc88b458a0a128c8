import db from '@adonisjs/lucid/services/db'
import { productQueries } from '#catalog/services/product_queries'
import ReleaseRun from '#release/models/release_run'
import { AppError } from '#core/exceptions/app_error'
import { releaseOrderQueries } from '#orders/services/order_queries'
import { releaseLock, RELEASE_LOCK } from '#release/services/release_lock'
import { releaseConfig } from '#release/services/release_config'
import { clock } from '#core/services/clock'
import { isRedisUnreachable } from '#core/helpers/redis_errors'

/**
 * The read side of release day: run records as the console and the CLI show them, and the
 * figures of `release:status`. Kept apart from the runner so `release:status` loads no engine,
 * gateway or mailer.
 */
export class ReleaseStatus {
  /** The latest real (not dry) run, as the console shows it, or null before the first one. */
  async lastRun() {
    const run = await ReleaseRun.query().where('dry_run', false).orderBy('id', 'desc').first()
    return run ? presentOneRun(run) : null
  }

  /** Release-day figures for `release:status` and the console. */
  async status(productId: number | null = null) {
    if (productId !== null && !(await productQueries.find(productId))) {
      throw AppError.notFound(`Product ${productId} not found.`, 'product_not_found')
    }
    const figures = await releaseOrderQueries.releaseFigures(productId)
    const tasks = db.from('release_tasks').select('status').count('* as total').groupBy('status')
    if (productId !== null) tasks.where('product_id', productId)
    const taskCounts: Record<string, number> = {}
    for (const row of await tasks) taskCounts[row.status] = Number(row.total)
    // With a product: the last run that was for it, or that handed any of its orders over.
    const runs = ReleaseRun.query().where('dry_run', false).orderBy('id', 'desc')
    if (productId !== null) {
      runs.where((query) =>
        query
          .where('product_id', productId)
          .orWhereIn('id', db.from('release_tasks').where('product_id', productId).select('run_id'))
      )
    }
    const lastRun = await runs.first()
    // The figures come from the database; only who runs now is in the lock's store (Redis with
    // REDIS_URL), and a store that does not answer leaves that one line unknown, not the rest.
    const running = await releaseLock.holder(RELEASE_LOCK).then(
      (lock) => ({ runningNow: lock ? lock.owner : null, runningNowUnknown: null }),
      (error: Error) => ({ runningNow: null, runningNowUnknown: lockStoreProblem(error) })
    )
    return {
      productId,
      ...figures,
      awaitingResult: taskCounts.submitted ?? 0,
      lastRun: lastRun ? await presentOneRun(lastRun) : null,
      ...running,
    }
  }
}

type RunExtras = {
  productTitle: string | null
  tasks: {
    submitted: number
    awaiting: number
    succeeded: number
    failed: number
    settling: number
    feesCharged: number
  } | null
}

/**
 * A run as the console and the CLI show it. A run still marked running whose heartbeat is older
 * than the lock's expiry reads `interrupted` at once (the next run records it). With its tasks,
 * the counts are those of the orders it handed to the engine, so webhook and files runs move as
 * the bots' results arrive.
 */
export function presentRun(
  run: ReleaseRun,
  extras: RunExtras = { productTitle: null, tasks: null }
) {
  const beat = run.heartbeatAt ?? run.startedAt
  const stale =
    run.status === 'running' &&
    !run.dryRun &&
    beat.toMillis() < clock.nowMs() - releaseConfig().lockTtlMs
  const status = stale ? 'interrupted' : run.status
  const tasks = extras.tasks
  const end = run.finishedAt ?? (stale ? beat : null)
  return {
    id: run.id,
    productId: run.productId,
    productTitle: run.productId === null ? null : extras.productTitle,
    engine: run.engine,
    dryRun: run.dryRun,
    status,
    trigger: run.trigger,
    ordersSubmitted: Math.max(run.ordersSubmitted, tasks?.submitted ?? 0),
    ordersAwaiting: tasks?.awaiting ?? 0,
    ordersSucceeded: Math.max(run.ordersSucceeded, tasks?.succeeded ?? 0),
    ordersFailed: Math.max(run.ordersFailed, tasks?.failed ?? 0),
    /** Results known whose money and e-mail are still on the gateway queue (workers). */
    ordersSettling: tasks?.settling ?? 0,
    feesCharged: Math.max(run.feesCharged, tasks?.feesCharged ?? 0),
    feesDue: run.feesDue,
    error: stale
      ? `No heartbeat since ${beat.toUTC().toFormat('HH:mm:ss')} UTC: the process running it stopped.`
      : run.error,
    startedAt: run.startedAt.toISO(),
    finishedAt: run.finishedAt?.toISO() ?? null,
    durationSeconds: end ? Math.max(0, Math.round(end.diff(run.startedAt).as('seconds'))) : null,
  }
}

/** Runs with their product's title and their tasks' counts, read in two queries. */
export async function presentRuns(runs: ReleaseRun[]) {
  if (runs.length === 0) return []
  const ids = runs.map((run) => run.id)
  const counts = await db
    .from('release_tasks')
    .join('orders', 'orders.id', 'release_tasks.order_id')
    .whereIn('release_tasks.run_id', ids)
    .select('release_tasks.run_id')
    .select(
      db.raw('sum(case when release_tasks.submitted_at is not null then 1 else 0 end) as submitted')
    )
    .select(
      db.raw("sum(case when release_tasks.status = 'submitted' then 1 else 0 end) as awaiting")
    )
    .select(
      db.raw("sum(case when release_tasks.outcome = 'success' then 1 else 0 end) as succeeded")
    )
    .select(db.raw("sum(case when release_tasks.outcome = 'fail' then 1 else 0 end) as failed"))
    .select(
      db.raw("sum(case when release_tasks.status = 'resulted' then 1 else 0 end) as settling")
    )
    .select(
      db.raw(
        "sum(case when release_tasks.outcome = 'success' and orders.fee_status = 'paid' " +
          'then 1 else 0 end) as fees_charged'
      )
    )
    .groupBy('release_tasks.run_id')
  const byRun = new Map(
    counts.map((row) => [
      Number(row.run_id),
      {
        submitted: Number(row.submitted ?? 0),
        awaiting: Number(row.awaiting ?? 0),
        succeeded: Number(row.succeeded ?? 0),
        failed: Number(row.failed ?? 0),
        settling: Number(row.settling ?? 0),
        feesCharged: Number(row.fees_charged ?? 0),
      },
    ])
  )
  const productIds = [...new Set(runs.map((run) => run.productId).filter((id) => id !== null))]
  const products = productIds.length
    ? await db.from('products').whereIn('id', productIds).select('id', 'title')
    : []
  const titles = new Map(products.map((row) => [Number(row.id), String(row.title)]))
  return runs.map((run) =>
    presentRun(run, {
      productTitle: run.productId === null ? null : (titles.get(run.productId) ?? null),
      tasks: byRun.get(run.id) ?? null,
    })
  )
}

export async function presentOneRun(run: ReleaseRun) {
  const [shown] = await presentRuns([run])
  return shown
}

export const releaseStatus = new ReleaseStatus()

/** Why the release lock's store did not say who holds it, in an operator's words. */
function lockStoreProblem(error: Error): string {
  return isRedisUnreachable(error)
    ? 'Redis, where the lock is kept, is not reachable'
    : error.message
}
