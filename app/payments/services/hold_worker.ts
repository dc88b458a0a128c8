import logger from '@adonisjs/core/services/logger'
import paymentsConfig from '#config/payments'
import type Order from '#orders/models/order'
import { orderQueries } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { notifications } from '#notifications/services/notification_service'
import { templates } from '#notifications/templates'
import { keysOf, paymentService } from '#payments/services/payment_service'
import { ledger } from '#payments/services/ledger'

export type HoldRunReport = {
  claimed: number
  placed: number
  declined: number
  retried: number
  released: number
  errors: number
}

/**
 * Places the $1.00 hold of new orders, off the checkout's hot path (the provider allows ~25
 * creates/s). The queue is the orders table itself: a hold is `queued` when the slot is bought,
 * claimed with a conditional UPDATE (`placing`), and a claim older than the stale limit (its
 * worker crashed) is claimed again; the ledger and the fixed idempotency key make that second
 * attempt the same provider request, never a second hold.
 *
 * `runOnce()` is the unit of work (tests and the CLI call it); `start()` runs it in a loop in
 * the web process.
 */
export class HoldWorker {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<HoldRunReport> | null = null
  private stopped = true

  async runOnce(options: { limit?: number } = {}): Promise<HoldRunReport> {
    const report: HoldRunReport = {
      claimed: 0,
      placed: 0,
      declined: 0,
      retried: 0,
      released: 0,
      errors: 0,
    }
    const config = paymentsConfig.holdWorker
    const orders = await orderPaymentState.claimHolds(
      options.limit ?? config.batchSize,
      config.staleClaimSeconds
    )
    report.claimed = orders.length
    for (const order of orders) {
      try {
        await this.process(order, report)
      } catch (error) {
        // Left `placing`: it goes stale and is claimed again, with the same idempotency key.
        report.errors += 1
        logger.error({ err: error, orderId: order.id }, 'placing a hold failed')
      }
    }
    return report
  }

  /** Runs batches until nothing is due (tests, the CLI's "drain" and demos). */
  async drain(options: { maxRounds?: number } = {}): Promise<HoldRunReport> {
    const total: HoldRunReport = {
      claimed: 0,
      placed: 0,
      declined: 0,
      retried: 0,
      released: 0,
      errors: 0,
    }
    for (let round = 0; round < (options.maxRounds ?? 100); round++) {
      const report = await this.runOnce()
      for (const key of Object.keys(total) as (keyof HoldRunReport)[]) total[key] += report[key]
      if (report.claimed === 0) break
    }
    return total
  }

  start() {
    if (!this.stopped) return
    this.stopped = false
    this.schedule(0)
  }

  async stop() {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.running) await this.running.catch(() => undefined)
  }

  /** A new order is waiting: run soon instead of at the next poll. */
  kick() {
    if (this.stopped || this.running) return
    this.schedule(0)
  }

  get isRunning() {
    return !this.stopped
  }

  private schedule(delayMs: number) {
    if (this.stopped) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.tick(), delayMs)
    this.timer.unref?.()
  }

  private async tick() {
    this.timer = null
    if (this.stopped || this.running) return
    let busy = false
    try {
      this.running = this.runOnce()
      const report = await this.running
      busy = report.claimed >= paymentsConfig.holdWorker.batchSize
    } catch (error) {
      logger.error({ err: error }, 'hold worker round failed')
    } finally {
      this.running = null
    }
    this.schedule(busy ? 0 : paymentsConfig.holdWorker.pollMs)
  }

  private async process(order: Order, report: HoldRunReport) {
    // A stale claim of an order that ended meanwhile, with no call ever made: nothing to place.
    if (
      order.status !== 'pending' &&
      !(await ledger.find(keysOf('hold', order, order.holdRound)))
    ) {
      await orderPaymentState.holdAbandoned(order.id)
      return
    }
    const outcome = await paymentService.placeHold(order)
    if (outcome.status === 'retry') {
      report.retried += 1
      // 5 s, 10 s, 20 s, ... capped: a provider that asks us to slow down gets room.
      const delay = Math.min(
        paymentsConfig.holdWorker.maxBackoffSeconds,
        5 * 2 ** Math.min(Math.max(order.holdAttempts - 1, 0), 8)
      )
      await orderPaymentState.holdRetryLater(order.id, outcome.code, delay)
      return
    }

    if (outcome.status === 'declined') {
      report.declined += 1
      await this.cancelForDecline(order, outcome.code, outcome.message)
      return
    }

    report.placed += 1
    // The order may have been cancelled while its hold was being placed: release it at once.
    const current = await orderQueries.findById(order.id)
    if (current.status === 'cancelled' || current.status === 'fail') {
      const release = await paymentService.releaseHold(current)
      if (release.status === 'released') report.released += 1
    }
  }

  /** A declined card check cancels the order, gives the slot back and tells the customer why. */
  private async cancelForDecline(order: Order, code: string, message: string) {
    await orderLifecycle.cancel(order, { reason: `hold_declined:${code}` })
    await orderPaymentState.holdDeclined(order.id, code)
    const current = await orderQueries.findById(order.id)
    if (current.status !== 'cancelled' || !current.failReason?.startsWith('hold_declined')) return
    await notifications.send({
      to: order.email,
      template: 'hold_declined',
      message: templates.holdDeclined({
        productTitle: order.productTitle,
        orderId: order.publicId,
        reason: message,
      }),
      userId: order.userId,
      orderId: order.id,
      dedupeKey: `order:${order.id}:hold-declined`,
    })
  }
}

export const holdWorker = new HoldWorker()
