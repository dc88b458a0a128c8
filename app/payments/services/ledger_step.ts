import { ledger } from '#payments/services/ledger'
import { recordFailure } from '#payments/services/gateway_calls'
import { gateway } from '#payments/services/gateway'

type LedgerRow = Parameters<typeof ledger.begin>[0]
export type LedgerEntry = Awaited<ReturnType<typeof ledger.begin>>

/** The ledger row of a gateway call about an order's money, written before the call. */
export function orderLedgerRow(
  keys: Pick<LedgerRow, 'key' | 'legacyKey'>,
  kind: LedgerRow['kind'],
  order: { id: number; userId: number | null },
  amountCents: number
): LedgerRow {
  return {
    ...keys,
    kind,
    gateway: gateway().name,
    orderId: order.id,
    userId: order.userId,
    amountCents,
  }
}

/** Before the call: `answer` ends the step without one, `using` is what the call needs. */
type Prepared<R, P> = { answer: R } | { using: P }

type Completion<T> =
  /** The row succeeds with the gateway's reference for the answer. */
  | { ref: (result: T) => string }
  /** The row is completed by the caller (an answer that may leave it open). */
  | { complete: (entry: LedgerEntry, result: T) => Promise<unknown> }

type LedgerStep<T, R, P> = Completion<T> & {
  /** Reads the row first: one an earlier run settled is answered from, without a call. */
  prepare?: (entry: LedgerEntry) => Promise<Prepared<R, P>> | Prepared<R, P>
  /**
   * The gateway call under the row's key. What it does after the gateway answered (metrics, a
   * crash point) comes before the row is completed.
   */
  call: (entry: LedgerEntry, using: P) => Promise<T>
  /** The answer once the row is completed; what it throws is handled as a failed call. */
  done: (result: T, entry: LedgerEntry) => R | Promise<R>
  /**
   * Writes the failure on the row: `recordFailure` when not given; `false` when `failed` writes
   * it (a money path with its own codes, or one that leaves some errors unrecorded).
   */
  record?: ((entry: LedgerEntry, error: unknown) => Promise<unknown>) | false
  /** The answer to a failed call once it is recorded; what it cannot answer it throws. */
  failed: (error: unknown, entry: LedgerEntry) => R | Promise<R>
}

/**
 * One gateway call through the payment ledger: the row is written (or found) before the call,
 * then completed with the gateway's answer or the failure, so a run cut short at any line is
 * finished by the next with the same key and never sent twice.
 */
export async function withLedger<T, R, P = undefined>(
  row: LedgerRow,
  step: LedgerStep<T, R, P>
): Promise<R> {
  const entry = await ledger.begin(row)
  const prepared = step.prepare ? await step.prepare(entry) : { using: undefined as P }
  if ('answer' in prepared) return prepared.answer
  try {
    const result = await step.call(entry, prepared.using)
    if ('complete' in step) await step.complete(entry, result)
    else await ledger.succeed(entry, step.ref(result))
    return await step.done(result, entry)
  } catch (error) {
    if (step.record !== false) await (step.record ?? recordFailure)(entry, error)
    return step.failed(error, entry)
  }
}
