import { hostname } from 'node:os'
import { randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { ProductRecord } from '#catalog/services/product_queries'
import { productQueries } from '#catalog/services/product_queries'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderQueries } from '#orders/services/order_queries'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderSettlement } from '#payments/services/order_settlement'
import { releaseOrderQueries } from '#orders/services/order_queries'
import { paymentService } from '#payments/services/payment_service'
import { withOrderMoney } from '#payments/services/order_money_lock'
import { holdWorker } from '#payments/services/hold_worker'
import { orderEmails } from '#notifications/services/order_emails'
import { AppError } from '#core/exceptions/app_error'
import ReleaseRun from '#release/models/release_run'
import { releaseLock, RELEASE_LOCK } from '#release/services/release_lock'
import { releaseConfig, type EngineName } from '#release/services/release_config'
import { releaseResults, type FinishReport, type TaskRow } from '#release/services/release_results'
import { orderOutcome } from '#release/services/order_outcome'
import { jobs } from '#core/jobs/jobs'
import { crashPoint } from '#core/services/crash_points'
import { createEngine, type CheckoutEngine } from '#release/services/checkout_engines'
import { opsLog } from '#core/services/ops_log'
import { releaseRunDuration, releaseRuns } from '#core/services/metrics'
import { releaseStatus } from '#release/services/release_status'
import { SubmitTally } from '#release/services/submit_tally'
import { TaskPlanner } from '#release/services/task_plan'
import { restockWindows } from '#release/services/restock_windows'
import { submitOrder, type SubmissionTally } from '#release/services/order_submission'
import { feeStatusIsDue } from '#shared/vocabulary'
import { emptyRunReport, type RunOptions, type RunReport } from '#release/services/run_report'

export { RELEASE_LOCK }
export type { RunOptions, RunReport } from '#release/services/run_report'
export { presentRuns, presentOneRun } from '#release/services/release_status'

/** What the run's steps share: its row, the lock's owner, its settings and its report. */
type RunContext = {
  run: ReleaseRun
  owner: string
  config: ReturnType<typeof releaseConfig>
  report: RunReport
  options: RunOptions
  engine: CheckoutEngine | null
}

/** The orders and tasks a run works through, in this order. */
type RunWork = {
  ready: OrderRecord[]
  processing: OrderRecord[]
  unfinished: TaskRow[]
  feeDue: OrderRecord[]
  windowClosed: OrderRecord[]
}

/**
 * Release day (docs/decisions.md, "Release day"): products whose release time has come have their
 * pending orders submitted to the configured checkout engine; results are applied through the
 * order lifecycle (fee on success only, holds released) and the customer is e-mailed.
 *
 * Safe to run every minute and after a crash: one run at a time (a DB lock with an expiry and
 * heartbeat), each order claimed by a conditional pending -> processing move, and every later
 * step idempotent with its progress in the database (order status, payment ledger, release
 * task, outbox dedupe keys). A re-run finds what a killed run left and finishes it.
 */
export class ReleaseRunner {
  async releasedProducts(productId: number | null = null): Promise<ProductRecord[]> {
    if (productId !== null) {
      const product = await productQueries.find(productId)
      if (!product) throw AppError.notFound(`Product ${productId} not found.`, 'product_not_found')
      if (!product.avail) {
        throw AppError.conflict(
          `Product ${productId} is paused (not available): its release waits until it is ` +
            'made available again.',
          'product_paused'
        )
      }
      if (!product.releaseAt || product.releaseAt > DateTime.now()) {
        throw AppError.conflict(
          `Product ${productId} is not released yet` +
            (product.releaseAt ? ` (release time ${product.releaseAt.toISO()}).` : '.'),
          'product_not_released'
        )
      }
      return [product]
    }
    // A product made unavailable (avail=false) pauses its release: nothing of it is submitted.
    return productQueries.dueForRelease()
  }

  async run(options: RunOptions = {}): Promise<RunReport> {
    const config = releaseConfig()
    const dryRun = options.dryRun ?? false
    const products = await this.releasedProducts(options.productId ?? null)
    const engine = this.chooseEngine(options, dryRun, config.engine)
    const engineName = engine?.name ?? (options.engine as EngineName) ?? config.engine
    const report = emptyRunReport(engineName, dryRun, products)

    const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
    if (!dryRun && !(await releaseLock.acquire(RELEASE_LOCK, owner, config.lockTtlMs))) {
      const holder = await releaseLock.holder(RELEASE_LOCK)
      return { ...report, status: 'skipped', lockedBy: holder?.owner ?? 'another run' }
    }

    const run = await this.startRun(options, engineName, owner, products)
    report.runId = run.id
    const context: RunContext = { run, owner, config, report, options, engine }
    let idle = false

    try {
      idle = await this.workThrough(context, products)
      run.status = 'finished'
    } catch (error) {
      run.status = 'failed'
      run.error = (error instanceof Error ? error.message : String(error)).slice(0, 255)
      report.status = 'failed'
      report.error = run.error
    } finally {
      await this.endRun(context, idle)
    }
    return report
  }

  private chooseEngine(
    options: RunOptions,
    dryRun: boolean,
    configured: EngineName
  ): CheckoutEngine | null {
    if (typeof options.engine === 'object') return options.engine
    return dryRun ? null : createEngine(options.engine ?? configured)
  }

  /** Records the run, then (a real run) closes the ones a dead process left marked running. */
  private async startRun(
    options: RunOptions,
    engineName: EngineName,
    owner: string,
    products: ProductRecord[]
  ): Promise<ReleaseRun> {
    const dryRun = options.dryRun ?? false
    const run = await ReleaseRun.create({
      productId: options.productId ?? null,
      engine: engineName,
      dryRun,
      status: 'running',
      trigger: options.trigger ?? 'cli',
      ordersSubmitted: 0,
      ordersSucceeded: 0,
      ordersFailed: 0,
      feesCharged: 0,
      feesDue: 0,
      lockOwner: dryRun ? null : owner,
      error: null,
      startedAt: DateTime.now(),
      heartbeatAt: DateTime.now(),
    })
    opsLog('run.start', {
      run: run.id,
      engine: engineName,
      trigger: run.trigger,
      dryRun,
      products: products.map((product) => product.id),
    })
    if (!dryRun) {
      await this.closeInterrupted(`run #${run.id} took its orders over`, { exceptRunId: run.id })
    }
    crashPoint('run-started')
    return run
  }

  /** Does the run's work (or plans it, dry); true when there was nothing to do. */
  private async workThrough(context: RunContext, products: ProductRecord[]): Promise<boolean> {
    const { run, report, options } = context
    // Embedded, the run places the holds still due itself; with workers they are on the gateway
    // queue, and orders still waiting for theirs are submitted by the next run.
    if (!report.dryRun && jobs.driverName !== 'bullmq') await holdWorker.drain()
    const work = await this.collectWork(context, products)
    const total =
      work.ready.length +
      work.processing.length +
      work.unfinished.length +
      work.feeDue.length +
      work.windowClosed.length

    if (report.dryRun) {
      report.plan = {
        readyToSubmit: work.ready.length,
        toResume: work.processing.length,
        toFinish: work.unfinished.length,
        feeRetries: work.feeDue.length,
        windowClosed: work.windowClosed.length,
      }
      return false
    }
    if (total === 0 && report.awaitingHold === 0 && run.trigger !== 'console') {
      // Nothing to do (most cron ticks): no row, so the history shows runs that did something.
      return true
    }
    options.onPlan?.(total)
    const breaker = new SubmitTally(context.config.breakerFailures)
    await this.submitOrders(context, work, breaker)
    const onWorkers = jobs.driverName === 'bullmq'
    await this.finishResults(context, work.unfinished, onWorkers)
    await this.retryDueFees(context, work.feeDue, onWorkers)
    await this.closeRestockWindows(context, work.windowClosed)
    // Any due order the engine refused or could not take fails the run (orders kept as they are).
    breaker.settle()
    return false
  }

  /** What the run has to do; also counts the orders still waiting for their card check. */
  private async collectWork(context: RunContext, products: ProductRecord[]): Promise<RunWork> {
    const { config, report } = context
    const productIds = products.map((product) => product.id)
    const ready = await releaseOrderQueries.readyToSubmit(productIds)
    const processing = await this.leftProcessing(productIds)
    const unfinished = await releaseResults.unfinished(null)
    const feeDue = await releaseOrderQueries.feeDue({
      maxAttempts: config.feeMaxAttempts,
      lastTryBefore: DateTime.now().minus({ minutes: config.feeRetryMinutes }),
      productIds: null,
    })
    report.awaitingHold = await releaseOrderQueries.awaitingHold(productIds)
    // Orders every retailer sold out for, once their product's restock window has closed.
    const windowClosed = await restockWindows.closable(products)
    return { ready, processing, unfinished, feeDue, windowClosed }
  }

  /** Orders a crashed run left processing first, then the newly claimed ones. */
  private async submitOrders(context: RunContext, work: RunWork, breaker: SubmitTally) {
    const { run, report } = context
    const engine = context.engine!
    const planner = new TaskPlanner()
    const tally: SubmissionTally = {
      submitted: () => report.submitted++,
      awaitingResult: () => report.awaitingResult++,
      submitError: () => report.submitErrors++,
      finished: (finished) => this.count(report, finished),
    }
    for (const order of work.processing) {
      await this.step(context, () => submitOrder(order, engine, run.id, planner, breaker, tally))
    }
    for (const order of work.ready) {
      await this.step(context, async () => {
        if (!(await orderLifecycle.claimForProcessing(order))) return
        crashPoint('claimed')
        await submitOrder(order, engine, run.id, planner, breaker, tally)
      })
    }
  }

  /** Results recorded earlier whose money or e-mail is unfinished (queued, with workers). */
  private async finishResults(context: RunContext, unfinished: TaskRow[], onWorkers: boolean) {
    const { report } = context
    for (const task of unfinished) {
      await this.step(context, async () => {
        report.resumed++
        if (onWorkers) {
          report.settling++
          await orderOutcome.resume(task.order_id)
        } else {
          this.count(report, await releaseResults.finish(task.order_id))
        }
      })
    }
  }

  private async retryDueFees(context: RunContext, feeDue: OrderRecord[], onWorkers: boolean) {
    const { report } = context
    for (const order of feeDue) {
      await this.step(context, async () => {
        report.feeRetries++
        if (onWorkers) {
          report.settling++
          await jobs.dispatch('release.retry-fee', { orderId: order.id })
        } else {
          const outcome = await this.retryFee(order.id)
          if (outcome === 'paid') report.feesCharged++
          else if (outcome === 'due') report.feesDue++
        }
      })
    }
  }

  private async closeRestockWindows(context: RunContext, windowClosed: OrderRecord[]) {
    for (const order of windowClosed) {
      await this.step(context, async () =>
        this.count(context.report, await restockWindows.close(order))
      )
    }
  }

  /** One item of work, then the heartbeat and the progress callback. */
  private async step(context: RunContext, work: () => Promise<void>) {
    await work()
    await this.heartbeat(context.run, context.owner, context.config.lockTtlMs, context.report)
    context.options.onItem?.()
  }

  /** An idle run leaves no row; any other saves its counts. A real run frees the lock. */
  private async endRun(context: RunContext, idle: boolean) {
    const { run, report, owner } = context
    if (idle && run.status === 'finished') {
      await run.delete()
      report.runId = null
      opsLog('run.end', { run: run.id, status: 'idle' }, 'nothing to do; no run recorded')
    } else {
      await this.recordEnd(run, report)
    }
    if (!report.dryRun) await releaseLock.release(RELEASE_LOCK, owner)
  }

  private async recordEnd(run: ReleaseRun, report: RunReport) {
    this.copyCounts(run, report)
    run.finishedAt = DateTime.now()
    await run.save()
    if (!report.dryRun) {
      releaseRuns.inc({ status: run.status })
      releaseRunDuration.observe(
        { status: run.status },
        Math.max(0, run.finishedAt.diff(run.startedAt).as('seconds'))
      )
    }
    opsLog('run.end', {
      run: run.id,
      status: run.status,
      submitted: report.submitted,
      succeeded: report.succeeded,
      failed: report.failed,
      awaitingResult: report.awaitingResult,
      feesCharged: report.feesCharged,
      feesDue: report.feesDue,
      seconds: Math.round(run.finishedAt.diff(run.startedAt).as('seconds')),
      error: run.error,
    })
  }

  /**
   * Real runs still marked running whose process died (they stopped renewing the lock). Called by
   * the run that holds the lock now (so none of the others can be alive) and by `release:unlock`.
   */
  async closeInterrupted(takenOverBy: string, only: { exceptRunId?: number; owner?: string } = {}) {
    const runs = ReleaseRun.query().where('status', 'running').where('dry_run', false)
    if (only.exceptRunId) runs.whereNot('id', only.exceptRunId)
    if (only.owner) runs.where('lock_owner', only.owner)
    const stale = await runs
    for (const dead of stale) {
      dead.status = 'interrupted'
      dead.error = `The process running it stopped without finishing; ${takenOverBy}.`.slice(0, 255)
      dead.finishedAt = dead.heartbeatAt ?? dead.startedAt
      await dead.save()
    }
    return stale.length
  }

  /**
   * `release:unlock`: frees the release lock left by a run whose process died, so the next run
   * starts at once instead of waiting for the lock to lapse. Refused while the holder is alive
   * (it renewed the lock within its expiry) unless forced. The caller audits it.
   */
  async unlock(options: { force?: boolean; by: string }) {
    const held = await releaseLock.inspect(RELEASE_LOCK)
    if (!held) {
      const closed = await this.closeInterrupted(`the lock was already free (${options.by})`)
      return { unlocked: false, owner: null, interruptedRuns: closed }
    }
    const alive = held.expiresAt.getTime() >= Date.now()
    if (alive && !options.force) {
      const seconds = Math.ceil((held.expiresAt.getTime() - Date.now()) / 1000)
      throw AppError.conflict(
        `A release run holds the lock and is alive (${held.owner}; the lock lapses in ` +
          `${seconds} s unless it renews it). Use --force only if that process is gone.`,
        'release_run_alive'
      )
    }
    await releaseLock.forceRelease(RELEASE_LOCK)
    const closed = await this.closeInterrupted(`unlocked by ${options.by}`, { owner: held.owner })
    return { unlocked: true, owner: held.owner, interruptedRuns: closed }
  }

  /** Processing orders whose task never reached the engine (a run died between the two). */
  private async leftProcessing(productIds: number[]): Promise<OrderRecord[]> {
    const orders = await releaseOrderQueries.processing(productIds)
    if (orders.length === 0) return []
    const tasks = await db
      .from('release_tasks')
      .whereIn(
        'order_id',
        orders.map((order) => order.id)
      )
      .whereNot('status', 'submitting')
      .select('order_id')
    const handled = new Set(tasks.map((task) => task.order_id))
    return orders.filter((order) => !handled.has(order.id))
  }

  /** Tries a due fee again; once paid the order is settled and the customer e-mailed. */
  async retryFee(orderId: number): Promise<'paid' | 'due' | 'other'> {
    // One money action per order: the charge, the settling and the e-mail under its lock.
    return withOrderMoney(orderId, async () => {
      const order = await orderQueries.find(orderId)
      if (!order || order.status !== 'success') return 'other'
      const outcome = await paymentService.chargeFee(order, { retry: true })
      if (outcome.status === 'paid') {
        const { order: settled } = await orderSettlement.settle(order.id)
        await orderEmails.sendOutcome(settled)
        return 'paid'
      }
      return feeStatusIsDue(outcome.status) ? 'due' : 'other'
    })
  }

  private count(report: RunReport, finished: FinishReport) {
    if (finished.outcome === 'success') report.succeeded++
    else report.failed++
    if (finished.queued) report.settling++
    if (finished.feeCharged) report.feesCharged++
    if (finished.feeDue) report.feesDue++
  }

  private copyCounts(run: ReleaseRun, report: RunReport) {
    run.ordersSubmitted = report.submitted
    run.ordersSucceeded = report.succeeded
    run.ordersFailed = report.failed
    run.feesCharged = report.feesCharged
    run.feesDue = report.feesDue
  }

  /** Renews the lock and saves progress; a run that lost its lock stops (another took over). */
  private async heartbeat(run: ReleaseRun, owner: string, ttlMs: number, report: RunReport) {
    if (!(await releaseLock.renew(RELEASE_LOCK, owner, ttlMs))) {
      throw new Error('The release lock was lost (this run stalled past its expiry); stopping.')
    }
    this.copyCounts(run, report)
    run.heartbeatAt = DateTime.now()
    await run.save()
  }

  async findRun(id: number): Promise<ReleaseRun> {
    const run = await ReleaseRun.find(id)
    if (!run) throw AppError.notFound('Release run not found.', 'release_run_not_found')
    return run
  }

  /** The latest real (not dry) run, as the console shows it, or null before the first one. */
  lastRun() {
    return releaseStatus.lastRun()
  }

  /** Release-day figures for `release:status` and the console. */
  status(productId: number | null = null) {
    return releaseStatus.status(productId)
  }
}

export const releaseRunner = new ReleaseRunner()
