import { orderQueries } from '#orders/services/order_queries'
import { defineRule } from '#alerts/rules/rule'

/**
 * Orders waiting for release day (or a draw) whose $1.00 card check is still not placed some
 * minutes after the order: the hold worker or the gateway is stuck, and release day would
 * leave them out.
 */
export const waitingWithoutHold = defineRule({
  id: 'waiting_without_hold',
  description: 'Waiting orders whose $1.00 card check is not placed after the grace period',
  async evaluate({ thresholds, now }) {
    const found = await orderQueries.waitingWithoutHold(
      now.minus({ minutes: thresholds.holdGraceMinutes })
    )
    if (found.count === 0) return []
    return [
      {
        subject: '',
        title: `${found.count} waiting order(s) without a placed $1.00 card check`,
        detail:
          `Orders still without their card check ${thresholds.holdGraceMinutes} minutes after ` +
          `they were placed: ${found.orderNumbers.join(', ')}${found.count > found.orderNumbers.length ? ', ...' : ''}. ` +
          'Is the gateway queue running, is the gateway answering?',
        value: found.count,
        threshold: 0,
      },
    ]
  },
})
