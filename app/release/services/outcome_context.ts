import type { AuditActor } from '#core/services/audit_log_service'
import type { OrderStatus } from '#shared/vocabulary'

/**
 * Where a result comes from: a checkout engine of a release run (`simulator`, `webhook`,
 * `files`), or a person marking it by hand (`manual`: the console or `orders:mark`).
 */
export type OutcomeSource = 'simulator' | 'webhook' | 'files' | 'manual' | 'mail'

export type OutcomeContext = {
  source: OutcomeSource
  /** Who, for the audit log and the timeline. Engines default to `release:run #<run>`. */
  actor?: AuditActor | null
  ip?: string | null
  /** The channel, for the audit record: console, cli, webhook, files, release:run. */
  via?: string
}

/** Why a result was not applied: a code and a sentence a bot (or an operator) can read. */
export type Rejection = { status: number; code: string; reason: string }

/** A recorded result to apply: inline, or carried by the gateway queue's job. */
export type Completion = {
  orderId: number
  /** The order's status when the result was recorded. */
  before: OrderStatus
  /** This delivery recorded the result (false: it was recorded before, a repeat or a resume). */
  changed: boolean
  context: OutcomeContext & { actor: AuditActor }
}

export type OutcomePlan = {
  orderId: string
  customer: string
  outcome: 'success' | 'fail'
  from: OrderStatus
  /** Nothing would change (the order already has this result). */
  repeat: boolean
  /** The service fee that would be charged now, in cents (0 for a failure or a repeat). */
  feeCents: number
}

export const ENGINES = new Set<OutcomeSource>(['simulator', 'webhook', 'files'])

export function labelOf(actor: AuditActor | null | undefined) {
  return actor?.email ?? actor?.label ?? 'system'
}
