import { orderQueries } from '#orders/services/order_queries'
import { defineRule } from '#alerts/rules/rule'

/**
 * Waiting orders whose $1.00 hold lapses within the window (24 h) while its renewal, due for
 * longer than the grace period, has not happened: without a live authorization the order would
 * be checked out on release day with nothing proving the card.
 */
export const holdsLapsing = defineRule({
  id: 'holds_lapsing',
  description: 'Waiting orders whose $1.00 hold lapses within 24 h and was not renewed in time',
  async evaluate({ thresholds, now }) {
    const found = await orderQueries.holdsLapsingUnrenewed(now, {
      withinHours: thresholds.holdExpiryHours,
      renewalDueBefore: now.minus({ minutes: thresholds.holdGraceMinutes }),
    })
    if (found.count === 0) return []
    const more = found.count > found.orderNumbers.length ? ', ...' : ''
    return [
      {
        subject: '',
        title: `${found.count} waiting order(s) whose $1.00 hold lapses within ${thresholds.holdExpiryHours} h without a renewal`,
        detail:
          `Holds due for renewal more than ${thresholds.holdGraceMinutes} minutes ago and still ` +
          `not renewed (${found.lapsed} already lapsed): ${found.orderNumbers.join(', ')}${more}. ` +
          'Is the hold sweep running (payments.sweep-holds), is the gateway answering?',
        value: found.count,
        threshold: 0,
      },
    ]
  },
})
