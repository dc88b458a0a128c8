import { mailIntakeConfig } from '#config/mail_intake'
import type { OrderRecord } from '#orders/services/order_queries'
import type { OutcomeEvidence } from '#release/services/outcome_evidence'

/**
 * Which evidence succeeds an order (SUCCESS_EVIDENCE): `either` the bot's result or the
 * retailer's e-mail, `mail` the e-mail alone (a bot's success waits for it, flagged after
 * SUCCESS_EVIDENCE_WAIT_HOURS), `bot` the bot alone (a confirmation is recorded and moves
 * nothing; a cancellation still refunds). The one outcome path asks through its port.
 */
export const mailEvidence: OutcomeEvidence & { confirmationsCount(): boolean } = {
  engineSuccessWaits: () => mailIntakeConfig().successEvidence === 'mail',

  /** The retailer's confirmation may succeed an order (not under SUCCESS_EVIDENCE=bot). */
  confirmationsCount: () => mailIntakeConfig().successEvidence !== 'bot',

  /** Only an order handed to the retailer (processing) or already won can be confirmed. */
  mailRefusal(order: OrderRecord) {
    if (order.status === 'processing' || order.status === 'success') return null
    return {
      status: 409,
      code: 'not_submitted',
      reason: `This order is ${order.status}: it was not handed to the retailer, so its confirmation cannot be applied.`,
    }
  },
}
