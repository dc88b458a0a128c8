import logger from '@adonisjs/core/services/logger'
import paymentsConfig from '#config/payments'
import type { OrderRecord } from '#orders/services/order_queries'
import { orderQueries } from '#orders/services/order_queries'
import { orderPaymentState } from '#orders/services/order_payment_state'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderEmails } from '#notifications/services/order_emails'
import { keysOf, paymentService } from '#payments/services/payment_service'
import { ledger } from '#payments/services/ledger'
import { productQueries } from '#catalog/services/product_queries'
import { OrderBusyError, withOrderMoney } from '#payments/services/order_money_lock'

const HOLD_NOT_AUTHENTICATED =
  'Your bank asked for authentication of the $1.00 card check, and it was not completed in time.'

export type HoldRunReport = {
  claimed: number
  placed: number
  /** Holds the bank asked the customer to authenticate (3-D Secure): they wait for them. */
  waiting: number
  /** Waiting holds not authenticated in time: their order cancelled, as a declined hold. */
  expired: number
  declined: number
  retried: number
  released: number
  /** Waiting orders whose hold was renewed (a new round placed, the old one released). */
  renewed: number
  errors: number
}

function emptyReport(): HoldRunReport {
  return {
    claimed: 0,
    placed: 0,
    waiting: 0,
    expired: 0,
    declined: 0,
    retried: 0,
    released: 0,
    renewed: 0,
    errors: 0,
  }
}

/**
 * Places the $1.00 hold of new orders, off the checkout's hot path (the provider allows ~25
 * creates/s). The queue is the orders table itself: a hold is `queued` when the slot is bought,
 * claimed with a conditional UPDATE (`placing`), and a claim older than the stale limit (its
 * worker crashed) is claimed again; the ledger and the fixed idempotency key make that second
 * attempt the same provider request, never a second hold.
 *
 * `placeOne()` is the unit of the `payments.place-hold` job; `runOnce()` and `drain()` place
 * due holds in batches (tests and the CLI).
 */
export class HoldWorker {
  async runOnce(options: { limit?: number } = {}): Promise<HoldRunReport> {
    const report = emptyReport()
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
    await this.expireWaiting(report, options.limit ?? config.batchSize)
    for (const orderId of await this.dueRenewalIds(options.limit ?? config.batchSize)) {
      await this.renewOne(orderId, {}, report)
    }
    return report
  }

  /** Waiting orders whose hold is due for renewal, for the sweep that dispatches their jobs. */
  dueRenewalIds(limit = paymentsConfig.holdWorker.batchSize * 10) {
    return orderPaymentState.dueRenewalIds(limit)
  }

  /**
   * Renews one waiting order's hold (the unit of the `payments.renew-hold` job), under the
   * order's money lock: a new round placed and the old hold released (`PaymentService.renewHold`).
   * A new hold the bank declines cancels the order as any declined hold does (slot back, the
   * customer e-mailed); one that needs the customer's authentication e-mails them to confirm it.
   * `lapsed`: the gateway reported the hold expired, so it is renewed now.
   */
  async renewOne(
    orderId: number,
    options: { lapsed?: boolean } = {},
    report: HoldRunReport = emptyReport()
  ) {
    try {
      return await withOrderMoney(orderId, async () => {
        const order = await orderQueries.findById(orderId)
        const outcome = await paymentService.renewHold(order, options)
        if (outcome.status === 'renewed') report.renewed += 1
        else if (outcome.status === 'retry') report.retried += 1
        else if (outcome.status === 'requires_action') {
          report.waiting += 1
          const current = await orderQueries.findById(orderId)
          await orderEmails.sendHoldNeedsConfirmation(current, outcome.waitUntil)
        } else if (outcome.status === 'declined') {
          report.declined += 1
          await this.cancelForDecline(order, outcome.code, outcome.message)
        }
        return outcome
      })
    } catch (error) {
      report.errors += 1
      logger.error({ err: error, orderId }, 'renewing a hold failed')
      if (error instanceof OrderBusyError) return { status: 'retry' as const, code: 'order_busy' }
      throw error
    }
  }

  /**
   * Holds that waited for the customer's authentication past their deadline: unless the
   * customer did authenticate meanwhile, the waiting payment is cancelled and the order is
   * cancelled as a declined hold (slot given back, customer told), like any declined hold.
   */
  async expireWaiting(
    report: HoldRunReport = emptyReport(),
    limit = paymentsConfig.holdWorker.batchSize
  ) {
    const orders = await orderPaymentState.claimExpiredActions(limit)
    report.claimed += orders.length
    for (const order of orders) {
      try {
        await withOrderMoney(order.id, async () => {
          const paymentId = order.holdPaymentId!
          const payment = await paymentService.recordAuthenticatedHold(order, paymentId)
          if (payment?.status === 'requires_capture') {
            // Authenticated at the last moment: the hold is placed after all.
            report.placed += 1
            return
          }
          await paymentService.abandonHoldAuthentication(order, paymentId)
          report.expired += 1
          await this.cancelForDecline(order, 'authentication_required', HOLD_NOT_AUTHENTICATED)
        })
      } catch (error) {
        report.errors += 1
        logger.error({ err: error, orderId: order.id }, 'expiring a waiting hold failed')
      }
    }
    return report
  }

  /**
   * Places one order's hold, the unit of the `payments.place-hold` job: claimed with the same
   * conditional UPDATE as a batch, so a job delivered twice (or racing a batch) places it once.
   * Null when the hold was not due or another worker has it.
   */
  async placeOne(orderId: number): Promise<HoldRunReport | null> {
    const config = paymentsConfig.holdWorker
    if (!(await orderPaymentState.claimHold(orderId, config.staleClaimSeconds))) return null
    const report = emptyReport()
    report.claimed = 1
    // A throw leaves the hold `placing`: its claim goes stale and the sweep claims it again.
    await this.process(await orderQueries.findById(orderId), report)
    return report
  }

  /** Orders whose hold is due, for the sweep that dispatches their jobs. */
  dueOrderIds(limit = paymentsConfig.holdWorker.batchSize * 10) {
    return orderPaymentState.dueHoldIds(limit, paymentsConfig.holdWorker.staleClaimSeconds)
  }

  /** How many holds are due and how long the oldest has waited (`dropslot queues:status`). */
  async backlog() {
    return orderPaymentState.holdBacklog(paymentsConfig.holdWorker.staleClaimSeconds)
  }

  /** Runs batches until nothing is due (tests, the CLI's "drain" and demos). */
  async drain(options: { maxRounds?: number } = {}): Promise<HoldRunReport> {
    const total = emptyReport()
    for (let round = 0; round < (options.maxRounds ?? 100); round++) {
      const report = await this.runOnce()
      for (const key of Object.keys(total) as (keyof HoldRunReport)[]) total[key] += report[key]
      if (report.claimed === 0) break
    }
    return total
  }

  /**
   * One claimed hold, under the order's money lock (so no refund, cancel or other money action
   * of the order runs meanwhile). An order busy for longer than the lock's wait goes back to
   * the queue for a few seconds.
   */
  private async process(order: OrderRecord, report: HoldRunReport) {
    try {
      await withOrderMoney(order.id, () => this.processLocked(order, report))
    } catch (error) {
      if (!(error instanceof OrderBusyError)) throw error
      report.retried += 1
      await orderPaymentState.holdRetryLater(order.id, 'order_busy', 5)
    }
  }

  private async processLocked(order: OrderRecord, report: HoldRunReport) {
    // A stale claim of an order that ended meanwhile, with no call ever made: nothing to place.
    if (
      order.status !== 'pending' &&
      order.status !== 'entered' &&
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

    if (outcome.status === 'requires_action') {
      report.waiting += 1
      const deadline = await this.authenticationDeadline(order)
      await orderPaymentState.holdNeedsAction(order.id, outcome.paymentId, deadline)
      // Cancelled while the bank was being asked: the waiting payment goes with the order.
      const now = await orderQueries.findById(order.id)
      if (now.status !== 'pending' && now.status !== 'entered') {
        await paymentService.releaseHold(now)
        return
      }
      await orderEmails.sendHoldNeedsConfirmation(order, deadline)
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

  /**
   * How long a hold may wait for the customer's authentication: until the product's release
   * (the retailer is sent only orders whose card was checked) and at most a day after the order,
   * so a slot is never kept for long by a card nobody confirms; at least 15 minutes. Derived
   * from the order alone, so a re-run sets the same deadline.
   */
  private async authenticationDeadline(order: OrderRecord) {
    const config = paymentsConfig.holdWorker
    const latest = order.createdAt.plus({ hours: config.authenticationWaitHours })
    const product = await productQueries.find(order.productId)
    const releaseAt = product?.releaseAt ?? null
    const deadline = releaseAt && releaseAt < latest ? releaseAt : latest
    const earliest = order.createdAt.plus({ minutes: 15 })
    return deadline < earliest ? earliest : deadline
  }

  /** A declined card check cancels the order, gives the slot back and tells the customer why. */
  private async cancelForDecline(order: OrderRecord, code: string, message: string) {
    await orderSettlement.cancel(order, { reason: `hold_declined:${code}` })
    await orderPaymentState.holdDeclined(order.id, code)
    const current = await orderQueries.findById(order.id)
    if (current.status !== 'cancelled' || !current.failReason?.startsWith('hold_declined')) return
    await orderEmails.sendHoldDeclined(order, message)
  }
}

export const holdWorker = new HoldWorker()
