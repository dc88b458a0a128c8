import type { OrderRecord } from '#orders/services/order_queries'
import type { Rejection } from '#release/services/outcome_context'

/**
 * What the retailer's signed e-mail counts for (SUCCESS_EVIDENCE, docs/mail-intake.md), as the
 * one outcome path asks it. The rules are the mail module's; mail calls the outcome path, so
 * they are handed in at boot (`start/outcome_evidence.ts`) rather than imported from here.
 */
export type OutcomeEvidence = {
  /** Why the retailer's e-mail cannot decide this order now, or null when it may. */
  mailRefusal(order: OrderRecord): Rejection | null
  /** A checkout engine's success waits for the retailer's e-mail before the order succeeds. */
  engineSuccessWaits(): boolean
}

let rules: OutcomeEvidence | null = null

export function useOutcomeEvidence(given: OutcomeEvidence) {
  rules = given
}

export function outcomeEvidence(): OutcomeEvidence {
  if (!rules) {
    throw new Error('The outcome evidence rules are set at boot (start/outcome_evidence.ts).')
  }
  return rules
}
