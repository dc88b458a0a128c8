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
import { releaseResults, type FinishReport } from '#release/services/release_results'
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

export { RELEASE_LOCK }
export { presentRuns, presentOneRun } from '#release/services/release_status'

export type RunOptions = {
  productId?: number | null
  dryRun?: boolean
  trigger?: string
  /** An engine name, or an engine instance (tests, embedding). */
  engine?: EngineName | CheckoutEngine
  /** Called once the work is known, then after each item (progress bars). */
  onPlan?: (total: number) => void
  onItem?: () => void
}

export type RunReport = {
  runId: number | null
  status: 'finished' | 'failed' | 'skipped'
  engine: EngineName
  dryRun: boolean
  products: { id: number; title: string; releaseAt: string | null }[]
  /** Orders handed to the engine by this run (new ones and ones a crashed run left behind). */
  submitted: number
  succeeded: number
  failed: number
  /** Handed to a bot; the result comes back later. */
  awaitingResult: number
  /** Could not be handed to the engine (it stays processing and is retried next run). */
  submitErrors: number
  /** Results recorded earlier whose money or e-mail a crash or an outage left unfinished. */
  resumed: number
  feesCharged: number
  feesDue: number
  feeRetries: number
  /** Results known whose money and e-mail were handed to the gateway queue (workers). */
  settling: number
  /** Pending orders whose $1.00 card check is not placed yet (submitted by a later run). */
  awaitingHold: number
  /** Dry run: what a real run would do. */
  plan?: {
    readyToSubmit: number
    toResume: number
    toFinish: number
    feeRetries: number
    /** Orders every retailer sold out for, whose restock window has closed. */
    windowClosed: number
  }
  lockedBy?: string
  error?: string
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
    const engine =
      typeof options.engine === 'object'
        ? options.engine
        : dryRun
          ? null
          : createEngine(options.engine ?? config.engine)
    const engineName = engine?.name ?? (options.engine as EngineName) ?? config.engine
    const productIds = products.map((product) => product.id)
    const report: RunReport = {
      runId: null,
      status: 'finished',
      engine: engineName,
      dryRun,
      products: products.map((product) => ({
        id: product.id,
        title: product.title,
        releaseAt: product.releaseAt?.toISO() ?? null,
      })),
      submitted: 0,
      succeeded: 0,
      failed: 0,
      awaitingResult: 0,
      submitErrors: 0,
      resumed: 0,
      feesCharged: 0,
      feesDue: 0,
      feeRetries: 0,
      settling: 0,
      awaitingHold: 0,
    }

    const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
    if (!dryRun && !(await releaseLock.acquire(RELEASE_LOCK, owner, config.lockTtlMs))) {
      const holder = await releaseLock.holder(RELEASE_LOCK)
      return { ...report, status: 'skipped', lockedBy: holder?.owner ?? 'another run' }
    }

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
    report.runId = run.id
    opsLog('run.start', {
      run: run.id,
      engine: engineName,
      trigger: run.trigger,
      dryRun,
      products: productIds,
    })
    if (!dryRun) {
      await this.closeInterrupted(`run #${run.id} took its orders over`, { exceptRunId: run.id })
    }
    crashPoint('run-started')
    let idle = false

    try {
      // Embedded, the run places the holds still due itself; with workers they are on the gateway
      // queue, and orders still waiting for theirs are submitted by the next run.
      if (!dryRun && jobs.driverName !== 'bullmq') await holdWorker.drain()
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

      if (dryRun) {
        report.plan = {
          readyToSubmit: ready.length,
          toResume: processing.length,
          toFinish: unfinished.length,
          feeRetries: feeDue.length,
          windowClosed: windowClosed.length,
        }
      } else if (
        ready.length +
          processing.length +
          unfinished.length +
          feeDue.length +
          windowClosed.length ===
          0 &&
        report.awaitingHold === 0 &&
        run.trigger !== 'console'
      ) {
        // Nothing to do (most cron ticks): no row, so the history shows runs that did something.
        idle = true
      } else {
        options.onPlan?.(
          ready.length + processing.length + unfinished.length + feeDue.length + windowClosed.length
        )
        const breaker = new SubmitTally(config.breakerFailures)
        const planner = new TaskPlanner()
        const tally: SubmissionTally = {
          submitted: () => report.submitted++,
          awaitingResult: () => report.awaitingResult++,
          submitError: () => report.submitErrors++,
          finished: (finished) => this.count(report, finished),
        }
        const step = async (work: () => Promise<void>) => {
          await work()
          await this.heartbeat(run, owner, config.lockTtlMs, report)
          options.onItem?.()
        }
        for (const order of processing) {
          await step(() => submitOrder(order, engine!, run.id, planner, breaker, tally))
        }
        for (const order of ready) {
          await step(async () => {
            if (!(await orderLifecycle.claimForProcessing(order))) return
            crashPoint('claimed')
            await submitOrder(order, engine!, run.id, planner, breaker, tally)
          })
        }
        const onWorkers = jobs.driverName === 'bullmq'
        for (const task of unfinished) {
          await step(async () => {
            report.resumed++
            if (onWorkers) {
              report.settling++
              await orderOutcome.resume(task.order_id)
            } else {
              this.count(report, await releaseResults.finish(task.order_id))
            }
          })
        }
        for (const order of feeDue) {
          await step(async () => {
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
        for (const order of windowClosed) {
          await step(async () => this.count(report, await restockWindows.close(order)))
        }
        // Any due order the engine refused or could not take fails the run (orders kept as they are).
        breaker.settle()
      }

      run.status = 'finished'
    } catch (error) {
      run.status = 'failed'
      run.error = (error instanceof Error ? error.message : String(error)).slice(0, 255)
      report.status = 'failed'
      report.error = run.error
    } finally {
      if (idle && run.status === 'finished') {
        await run.delete()
        report.runId = null
        opsLog('run.end', { run: run.id, status: 'idle' }, 'nothing to do; no run recorded')
      } else {
        this.copyCounts(run, report)
        run.finishedAt = DateTime.now()
        await run.save()
        if (!dryRun) {
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
      if (!dryRun) await releaseLock.release(RELEASE_LOCK, owner)
    }
    return report
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
